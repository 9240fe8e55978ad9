-- The list's search also finds a guest by its source's own id, whole (docs/behaviour.md §9.2):
-- across connections, so the unique (connectionId, externalId) index cannot serve it.
CREATE INDEX "virtual_machines_external_id_idx" ON "virtual_machines"("externalId");

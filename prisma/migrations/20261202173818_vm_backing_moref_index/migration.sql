-- CreateIndex
CREATE INDEX "virtual_machines_backing_moref_idx" ON "virtual_machines"("backingMoref");

-- Partial indexes over live guests (tombstones left out), which Prisma's schema language cannot
-- express; `prisma migrate diff` leaves partial indexes alone, so later migrations keep them.

-- The unified list's default order. Its page ids, a name search and the list's total are read
-- from this index alone (index-only scans), never from the wide rows.
CREATE INDEX "virtual_machines_live_name_idx" ON "virtual_machines"("nameSort", "id") WHERE "removedAt" IS NULL;

-- The Servers header's counts per source, kind and state.
CREATE INDEX "virtual_machines_live_kind_idx" ON "virtual_machines"("source", "kind", "state") WHERE "removedAt" IS NULL;

-- The unified list's default order, now covering what its filters test on every entry: a name
-- search also matches the source's own id ("externalId", docs/behaviour.md §9.2), and a viewer of
-- some connections only is filtered on "connectionId" (§7.9). With both in the index, a page's
-- ids and a filter's total are read from the index alone (index-only scans) instead of fetching
-- the wide row of every entry the filter passes over — at 50,000 guests, up to 45,000 per page.
-- Partial (tombstones left out), which Prisma's schema language cannot express.
DROP INDEX IF EXISTS "virtual_machines_live_name_idx";
CREATE INDEX "virtual_machines_live_name_idx" ON "virtual_machines"("nameSort", "id") INCLUDE ("externalId", "connectionId") WHERE "removedAt" IS NULL;

-- An address in its guest's last read is confirmed whenever the guest is; only a last-known one
-- (kept while the agent is silent, SPEC §10) keeps a time of its own, and now says so.
ALTER TABLE "ip_addresses" ADD COLUMN "isLastKnown" BOOLEAN NOT NULL DEFAULT false;

-- Rows written before: the engine took an AGENT address older than its guest's last rewrite
-- (changedAt) for last-known, so the same rule sorts them here.
UPDATE "ip_addresses" AS ip SET "isLastKnown" = true
FROM "virtual_machines" AS vm
WHERE ip."vmId" = vm."id" AND ip."origin" = 'AGENT' AND ip."lastConfirmedAt" < vm."changedAt";

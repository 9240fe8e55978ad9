-- Address rules (docs/behaviour.md §10.9): the raw addresses each guest reported, its primary
-- address, the rule that rejected an address, and a connection's own rules.
ALTER TABLE "virtual_machines" ADD COLUMN "reportedAddresses" JSONB NOT NULL DEFAULT '[]';
ALTER TABLE "virtual_machines" ADD COLUMN "primaryAddress" TEXT;
ALTER TABLE "ip_addresses" ADD COLUMN "rejectRule" TEXT;
ALTER TABLE "connections" ADD COLUMN "addressRules" JSONB;

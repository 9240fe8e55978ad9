-- Identity and names as users know them (issue 25, docs/behaviour.md §6, §9.2): the raw guest OS
-- code beside the readable name, BIOS and instance UUIDs, and NIC/disk labels. All nullable:
-- rows written before fill in on the next sync (the fingerprint covers the new fields).
ALTER TABLE "virtual_machines" ADD COLUMN "guestOsCode" TEXT;
ALTER TABLE "virtual_machines" ADD COLUMN "biosUuid" TEXT;
ALTER TABLE "virtual_machines" ADD COLUMN "instanceUuid" TEXT;
ALTER TABLE "nics" ADD COLUMN "label" TEXT;
ALTER TABLE "disks" ADD COLUMN "label" TEXT;

-- The list's search finds a guest by either UUID typed whole, across connections.
CREATE INDEX "virtual_machines_bios_uuid_idx" ON "virtual_machines"("biosUuid");
CREATE INDEX "virtual_machines_instance_uuid_idx" ON "virtual_machines"("instanceUuid");

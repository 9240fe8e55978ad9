-- Values only a guest agent or VMware Tools reports, kept when it goes silent, and why a guest's
-- agent values are missing (docs/behaviour.md §10.10–10.11).
ALTER TABLE "virtual_machines" ADD COLUMN "guestReport" JSONB;

CREATE TABLE "guest_values" (
    "id" UUID NOT NULL,
    "vmId" UUID NOT NULL,
    "field" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "reportedAt" TIMESTAMPTZ(3) NOT NULL,
    "notReportedSince" TIMESTAMPTZ(3),
    CONSTRAINT "guest_values_pkey" PRIMARY KEY ("id")
);

CREATE UNIQUE INDEX "guest_values_vm_field_key" ON "guest_values"("vmId", "field");

ALTER TABLE "guest_values" ADD CONSTRAINT "guest_values_vm_fkey" FOREIGN KEY ("vmId") REFERENCES "virtual_machines"("id") ON DELETE CASCADE ON UPDATE CASCADE;

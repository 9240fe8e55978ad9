-- RUN_SYNC: starting a manual sync becomes a capability of its own, granted with VIEW_INVENTORY.
-- Every user and token that may view today keeps the right to sync it has always had.
--
-- The enum is rebuilt rather than extended: migrations run in one transaction, and PostgreSQL
-- refuses to use a value added by ALTER TYPE ... ADD VALUE before that transaction commits.
CREATE TYPE "Capability_new" AS ENUM ('VIEW_INVENTORY', 'RUN_SYNC', 'MANAGE_PROXMOX', 'MANAGE_VCD', 'MANAGE_VCENTER', 'MANAGE_USERS');

ALTER TABLE "users" ALTER COLUMN "capabilities" TYPE "Capability_new"[] USING (
  CASE WHEN 'VIEW_INVENTORY' = ANY ("capabilities"::text[])
      AND NOT 'RUN_SYNC' = ANY ("capabilities"::text[])
    THEN array_append("capabilities"::text[], 'RUN_SYNC')
    ELSE "capabilities"::text[]
  END
)::"Capability_new"[];

ALTER TABLE "api_tokens" ALTER COLUMN "capabilities" TYPE "Capability_new"[] USING (
  CASE WHEN 'VIEW_INVENTORY' = ANY ("capabilities"::text[])
      AND NOT 'RUN_SYNC' = ANY ("capabilities"::text[])
    THEN array_append("capabilities"::text[], 'RUN_SYNC')
    ELSE "capabilities"::text[]
  END
)::"Capability_new"[];

DROP TYPE "Capability";
ALTER TYPE "Capability_new" RENAME TO "Capability";

-- The change feed (issue 24, docs/behaviour.md §14): every change a sync writes, in the order the
-- writes committed. "sequence" is the cursor integrators and webhook deliveries page by; writers
-- take a transaction-scoped advisory lock before inserting, so a higher sequence never commits
-- before a lower one and a reader paging "after N" cannot step over a row still in flight.
CREATE TYPE "InventoryEventType" AS ENUM (
  'VM_ADDED', 'VM_CHANGED', 'VM_REMOVED', 'VM_RESTORED',
  'IP_ADDED', 'IP_REMOVED',
  'EDGE_GATEWAY_ADDED', 'EDGE_GATEWAY_REMOVED',
  'GUARD_FIRED', 'SYNC_FAILED', 'SYNC_PARTIAL'
);

CREATE TABLE "inventory_events" (
  "sequence" BIGSERIAL NOT NULL,
  "id" UUID NOT NULL,
  "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "type" "InventoryEventType" NOT NULL,
  "connectionId" UUID NOT NULL,
  "syncRunId" UUID,
  "subjectId" UUID,
  "subjectName" TEXT,
  "data" JSONB NOT NULL DEFAULT '{}',
  CONSTRAINT "inventory_events_pkey" PRIMARY KEY ("sequence")
);

CREATE UNIQUE INDEX "inventory_events_id_key" ON "inventory_events"("id");
CREATE INDEX "inventory_events_connection_sequence_idx" ON "inventory_events"("connectionId", "sequence");
CREATE INDEX "inventory_events_at_idx" ON "inventory_events"("at");

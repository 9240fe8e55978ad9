-- Webhooks (issue 24, docs/behaviour.md §14.20–§14.29): endpoints an administrator registers, each
-- delivered the change feed (inventory_events) in order, at least once. The delivery state lives
-- on the endpoint row so a restarted or another replica picks up exactly where delivery stopped:
-- "cursor" is the last sequence delivered (or given up), "attempt"/"nextAttemptAt" the retry of
-- the event after it, "leaseHolder"/"leaseExpiresAt" which replica delivers to it now.
CREATE TABLE "webhook_endpoints" (
  "id" UUID NOT NULL,
  "url" TEXT NOT NULL,
  "description" TEXT NOT NULL DEFAULT '',
  -- Names of "InventoryEventType" (text: an enum array does not round-trip through every driver).
  "eventTypes" TEXT[] NOT NULL DEFAULT '{}',
  -- Connection ids (text: uuid[] does not round-trip through every driver; no foreign key, as
  -- for the change feed: a deleted connection's id just matches nothing more).
  "connectionIds" TEXT[] NOT NULL DEFAULT '{}',
  "isEnabled" BOOLEAN NOT NULL DEFAULT true,
  "disabledReason" TEXT,
  "secretCiphertext" TEXT NOT NULL,
  "secretKeyId" TEXT NOT NULL,
  "cursor" BIGINT NOT NULL DEFAULT 0,
  "attempt" INTEGER NOT NULL DEFAULT 0,
  "firstAttemptAt" TIMESTAMPTZ(3),
  "nextAttemptAt" TIMESTAMPTZ(3),
  "failingSince" TIMESTAMPTZ(3),
  "leaseHolder" TEXT,
  "leaseExpiresAt" TIMESTAMPTZ(3),
  "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "updatedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  CONSTRAINT "webhook_endpoints_pkey" PRIMARY KEY ("id")
);

CREATE TABLE "webhook_deliveries" (
  "id" UUID NOT NULL,
  "endpointId" UUID NOT NULL,
  "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
  "eventId" UUID NOT NULL,
  "eventSequence" BIGINT,
  "eventType" TEXT NOT NULL,
  "attempt" INTEGER NOT NULL,
  "outcome" TEXT NOT NULL,
  "statusCode" INTEGER,
  "latencyMs" INTEGER NOT NULL,
  "error" TEXT,
  CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "webhook_deliveries_endpointId_fkey" FOREIGN KEY ("endpointId")
    REFERENCES "webhook_endpoints"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

CREATE INDEX "webhook_deliveries_endpoint_at_idx" ON "webhook_deliveries"("endpointId", "at");

-- The Servers page's history (docs/behaviour.md §9.50): a connection's VMs, containers and running
-- guests when each run that wrote finished.
-- CreateTable
CREATE TABLE "inventory_samples" (
    "id" UUID NOT NULL,
    "connectionId" UUID NOT NULL,
    "syncRunId" UUID,
    "at" TIMESTAMPTZ(3) NOT NULL,
    "vms" INTEGER NOT NULL,
    "containers" INTEGER NOT NULL,
    "running" INTEGER NOT NULL,

    CONSTRAINT "inventory_samples_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "inventory_samples_connection_at_idx" ON "inventory_samples"("connectionId", "at");

-- CreateIndex
CREATE INDEX "inventory_samples_at_idx" ON "inventory_samples"("at");

-- AddForeignKey
ALTER TABLE "inventory_samples" ADD CONSTRAINT "inventory_samples_connection_fkey" FOREIGN KEY ("connectionId") REFERENCES "connections"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Each connection that has synced starts its history with what it holds now.
INSERT INTO "inventory_samples" ("id", "connectionId", "at", "vms", "containers", "running")
SELECT gen_random_uuid(), c."id", c."lastSyncAt",
  count(v."id") FILTER (WHERE v."kind" = 'VM'),
  count(v."id") FILTER (WHERE v."kind" = 'CONTAINER'),
  count(v."id") FILTER (WHERE v."state" = 'RUNNING')
FROM "connections" c
LEFT JOIN "virtual_machines" v
  ON v."connectionId" = c."id" AND v."removedAt" IS NULL AND NOT v."isTemplate"
WHERE c."lastSuccessAt" IS NOT NULL AND c."lastSyncAt" IS NOT NULL
GROUP BY c."id", c."lastSyncAt";

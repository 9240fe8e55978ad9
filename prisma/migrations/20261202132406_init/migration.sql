-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateEnum
CREATE TYPE "Capability" AS ENUM ('VIEW_INVENTORY', 'MANAGE_PROXMOX', 'MANAGE_VCD', 'MANAGE_VCENTER', 'MANAGE_USERS');

-- CreateEnum
CREATE TYPE "ConnectionKind" AS ENUM ('PROXMOX', 'VCD', 'VCENTER');

-- CreateEnum
CREATE TYPE "SyncTrigger" AS ENUM ('SCHEDULE', 'MANUAL', 'API', 'CLI');

-- CreateEnum
CREATE TYPE "SyncOutcome" AS ENUM ('RUNNING', 'SUCCESS', 'PARTIAL', 'FAILED', 'CANCELLED');

-- CreateEnum
CREATE TYPE "GuestKind" AS ENUM ('VM', 'CONTAINER');

-- CreateEnum
CREATE TYPE "PowerState" AS ENUM ('RUNNING', 'STOPPED', 'PAUSED', 'SUSPENDED', 'UNKNOWN');

-- CreateEnum
CREATE TYPE "Confirmation" AS ENUM ('CONFIRMED', 'NODE_OFFLINE', 'LIST_FAILED', 'NOT_CONFIRMED');

-- CreateEnum
CREATE TYPE "IpOrigin" AS ENUM ('STATIC_CONFIG', 'DHCP', 'AGENT', 'PLATFORM');

-- CreateEnum
CREATE TYPE "VmEventType" AS ENUM ('APPEARED', 'CHANGED', 'MOVED', 'REMOVED', 'RESTORED');

-- CreateTable
CREATE TABLE "users" (
    "id" UUID NOT NULL,
    "username" TEXT NOT NULL,
    "passwordHash" TEXT NOT NULL,
    "capabilities" "Capability"[],
    "isAdmin" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "disabledAt" TIMESTAMPTZ(3),

    CONSTRAINT "users_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sessions" (
    "id" UUID NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "userId" UUID NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sessions_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "api_tokens" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "capabilities" "Capability"[],
    "createdById" UUID NOT NULL,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMPTZ(3),
    "expiresAt" TIMESTAMPTZ(3),
    "revokedAt" TIMESTAMPTZ(3),

    CONSTRAINT "api_tokens_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "login_throttles" (
    "key" TEXT NOT NULL,
    "failures" INTEGER NOT NULL DEFAULT 0,
    "windowStart" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lockedUntil" TIMESTAMPTZ(3),

    CONSTRAINT "login_throttles_pkey" PRIMARY KEY ("key")
);

-- CreateTable
CREATE TABLE "connections" (
    "id" UUID NOT NULL,
    "kind" "ConnectionKind" NOT NULL,
    "name" TEXT NOT NULL,
    "baseUrl" TEXT NOT NULL,
    "username" TEXT NOT NULL,
    "tokenId" TEXT,
    "isProvider" BOOLEAN NOT NULL DEFAULT false,
    "verifyTls" BOOLEAN NOT NULL DEFAULT true,
    "caPem" TEXT,
    "syncIntervalSeconds" INTEGER NOT NULL DEFAULT 900,
    "isActive" BOOLEAN NOT NULL DEFAULT true,
    "settings" JSONB NOT NULL DEFAULT '{}',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    "lastSyncAt" TIMESTAMPTZ(3),
    "lastSyncOutcome" "SyncOutcome",
    "lastSyncMessage" TEXT,
    "lastSyncCounts" JSONB,
    "lastSuccessAt" TIMESTAMPTZ(3),
    "consecutiveFailures" INTEGER NOT NULL DEFAULT 0,
    "lastErrorClass" TEXT,
    "privilegeWarning" TEXT,

    CONSTRAINT "connections_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "connection_secrets" (
    "connectionId" UUID NOT NULL,
    "ciphertext" TEXT NOT NULL,
    "keyId" TEXT NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "connection_secrets_pkey" PRIMARY KEY ("connectionId")
);

-- CreateTable
CREATE TABLE "sync_leases" (
    "connectionId" UUID NOT NULL,
    "holder" TEXT NOT NULL,
    "syncRunId" UUID,
    "acquiredAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,

    CONSTRAINT "sync_leases_pkey" PRIMARY KEY ("connectionId")
);

-- CreateTable
CREATE TABLE "hypervisor_nodes" (
    "id" UUID NOT NULL,
    "connectionId" UUID NOT NULL,
    "externalId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "clusterName" TEXT,
    "isOnline" BOOLEAN NOT NULL DEFAULT true,
    "cpuCount" INTEGER,
    "memoryBytes" BIGINT,
    "details" JSONB NOT NULL DEFAULT '{}',
    "fingerprint" TEXT NOT NULL DEFAULT '',
    "firstSeenAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "removedAt" TIMESTAMPTZ(3),

    CONSTRAINT "hypervisor_nodes_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "virtual_machines" (
    "id" UUID NOT NULL,
    "connectionId" UUID NOT NULL,
    "source" "ConnectionKind" NOT NULL,
    "externalId" TEXT NOT NULL,
    "listKey" TEXT NOT NULL DEFAULT '',
    "name" TEXT NOT NULL,
    "kind" "GuestKind" NOT NULL DEFAULT 'VM',
    "state" "PowerState" NOT NULL DEFAULT 'UNKNOWN',
    "cpuCount" INTEGER,
    "memoryBytes" BIGINT,
    "diskTotalBytes" BIGINT,
    "guestOs" TEXT,
    "isTemplate" BOOLEAN NOT NULL DEFAULT false,
    "tags" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "nodeName" TEXT,
    "clusterName" TEXT,
    "datacenterName" TEXT,
    "hostName" TEXT,
    "orgName" TEXT,
    "vdcName" TEXT,
    "vappName" TEXT,
    "details" JSONB NOT NULL DEFAULT '{}',
    "fingerprint" TEXT NOT NULL DEFAULT '',
    "confirmation" "Confirmation" NOT NULL DEFAULT 'CONFIRMED',
    "firstSeenAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "changedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "removedAt" TIMESTAMPTZ(3),
    "removedBySyncId" UUID,
    "removedReason" TEXT,
    "backingVcenterId" TEXT,
    "backingMoref" TEXT,

    CONSTRAINT "virtual_machines_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "nics" (
    "id" UUID NOT NULL,
    "vmId" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "mac" TEXT,
    "network" TEXT,
    "model" TEXT,
    "isConnected" BOOLEAN,
    "vlan" INTEGER,

    CONSTRAINT "nics_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ip_addresses" (
    "id" UUID NOT NULL,
    "vmId" UUID NOT NULL,
    "nicKey" TEXT,
    "address" TEXT NOT NULL,
    "prefixLength" INTEGER,
    "origin" "IpOrigin" NOT NULL,
    "interfaceName" TEXT NOT NULL DEFAULT '',
    "isAccepted" BOOLEAN NOT NULL DEFAULT true,
    "rejectReason" TEXT,
    "lastConfirmedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "ip_addresses_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "disks" (
    "id" UUID NOT NULL,
    "vmId" UUID NOT NULL,
    "key" TEXT NOT NULL,
    "capacityBytes" BIGINT,
    "storage" TEXT,
    "busType" TEXT,

    CONSTRAINT "disks_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "edge_gateways" (
    "id" UUID NOT NULL,
    "connectionId" UUID NOT NULL,
    "externalId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "orgName" TEXT,
    "ownerType" TEXT,
    "ownerName" TEXT,
    "details" JSONB NOT NULL DEFAULT '{}',
    "fingerprint" TEXT NOT NULL DEFAULT '',
    "firstSeenAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSeenAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "removedAt" TIMESTAMPTZ(3),

    CONSTRAINT "edge_gateways_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "sync_runs" (
    "id" UUID NOT NULL,
    "connectionId" UUID NOT NULL,
    "trigger" "SyncTrigger" NOT NULL,
    "isDryRun" BOOLEAN NOT NULL DEFAULT false,
    "correlationId" TEXT NOT NULL,
    "startedAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "finishedAt" TIMESTAMPTZ(3),
    "outcome" "SyncOutcome" NOT NULL DEFAULT 'RUNNING',
    "counts" JSONB NOT NULL DEFAULT '{}',
    "guardFired" BOOLEAN NOT NULL DEFAULT false,
    "suppressed" JSONB NOT NULL DEFAULT '[]',
    "preview" JSONB,
    "message" TEXT,
    "errorClass" TEXT,

    CONSTRAINT "sync_runs_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "vm_events" (
    "id" UUID NOT NULL,
    "vmId" UUID NOT NULL,
    "syncRunId" UUID,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "type" "VmEventType" NOT NULL,
    "changes" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "vm_events_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "audit_logs" (
    "id" UUID NOT NULL,
    "at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "actorUserId" UUID,
    "actorTokenId" UUID,
    "action" TEXT NOT NULL,
    "targetType" TEXT NOT NULL,
    "targetId" TEXT,
    "details" JSONB NOT NULL DEFAULT '{}',

    CONSTRAINT "audit_logs_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "users_username_key" ON "users"("username");

-- CreateIndex
CREATE INDEX "sessions_user_idx" ON "sessions"("userId");

-- CreateIndex
CREATE INDEX "sessions_expires_idx" ON "sessions"("expiresAt");

-- CreateIndex
CREATE UNIQUE INDEX "sessions_token_hash_key" ON "sessions"("tokenHash");

-- CreateIndex
CREATE INDEX "api_tokens_created_by_idx" ON "api_tokens"("createdById");

-- CreateIndex
CREATE UNIQUE INDEX "api_tokens_token_hash_key" ON "api_tokens"("tokenHash");

-- CreateIndex
CREATE UNIQUE INDEX "connections_kind_name_key" ON "connections"("kind", "name");

-- CreateIndex
CREATE INDEX "connection_secrets_key_idx" ON "connection_secrets"("keyId");

-- CreateIndex
CREATE UNIQUE INDEX "hypervisor_nodes_connection_external_key" ON "hypervisor_nodes"("connectionId", "externalId");

-- CreateIndex
CREATE INDEX "virtual_machines_connection_list_idx" ON "virtual_machines"("connectionId", "listKey");

-- CreateIndex
CREATE INDEX "virtual_machines_name_idx" ON "virtual_machines"("name");

-- CreateIndex
CREATE INDEX "virtual_machines_changed_at_idx" ON "virtual_machines"("changedAt");

-- CreateIndex
CREATE INDEX "virtual_machines_source_state_idx" ON "virtual_machines"("source", "state");

-- CreateIndex
CREATE INDEX "virtual_machines_removed_at_idx" ON "virtual_machines"("removedAt");

-- CreateIndex
CREATE INDEX "virtual_machines_backing_idx" ON "virtual_machines"("backingVcenterId", "backingMoref");

-- CreateIndex
CREATE UNIQUE INDEX "virtual_machines_connection_external_key" ON "virtual_machines"("connectionId", "externalId");

-- CreateIndex
CREATE INDEX "nics_mac_idx" ON "nics"("mac");

-- CreateIndex
CREATE UNIQUE INDEX "nics_vm_key_key" ON "nics"("vmId", "key");

-- CreateIndex
CREATE INDEX "ip_addresses_address_idx" ON "ip_addresses"("address");

-- CreateIndex
CREATE UNIQUE INDEX "ip_addresses_vm_address_key" ON "ip_addresses"("vmId", "address", "interfaceName");

-- CreateIndex
CREATE UNIQUE INDEX "disks_vm_key_key" ON "disks"("vmId", "key");

-- CreateIndex
CREATE UNIQUE INDEX "edge_gateways_connection_external_key" ON "edge_gateways"("connectionId", "externalId");

-- CreateIndex
CREATE INDEX "sync_runs_connection_started_idx" ON "sync_runs"("connectionId", "startedAt" DESC);

-- CreateIndex
CREATE INDEX "vm_events_vm_at_idx" ON "vm_events"("vmId", "at");

-- CreateIndex
CREATE INDEX "audit_logs_at_idx" ON "audit_logs"("at");

-- CreateIndex
CREATE INDEX "audit_logs_target_idx" ON "audit_logs"("targetType", "targetId");

-- AddForeignKey
ALTER TABLE "sessions" ADD CONSTRAINT "sessions_user_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "api_tokens" ADD CONSTRAINT "api_tokens_created_by_fkey" FOREIGN KEY ("createdById") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "connection_secrets" ADD CONSTRAINT "connection_secrets_connection_fkey" FOREIGN KEY ("connectionId") REFERENCES "connections"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sync_leases" ADD CONSTRAINT "sync_leases_connection_fkey" FOREIGN KEY ("connectionId") REFERENCES "connections"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "hypervisor_nodes" ADD CONSTRAINT "hypervisor_nodes_connection_fkey" FOREIGN KEY ("connectionId") REFERENCES "connections"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "virtual_machines" ADD CONSTRAINT "virtual_machines_connection_fkey" FOREIGN KEY ("connectionId") REFERENCES "connections"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "nics" ADD CONSTRAINT "nics_vm_fkey" FOREIGN KEY ("vmId") REFERENCES "virtual_machines"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ip_addresses" ADD CONSTRAINT "ip_addresses_vm_fkey" FOREIGN KEY ("vmId") REFERENCES "virtual_machines"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "disks" ADD CONSTRAINT "disks_vm_fkey" FOREIGN KEY ("vmId") REFERENCES "virtual_machines"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "edge_gateways" ADD CONSTRAINT "edge_gateways_connection_fkey" FOREIGN KEY ("connectionId") REFERENCES "connections"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "sync_runs" ADD CONSTRAINT "sync_runs_connection_fkey" FOREIGN KEY ("connectionId") REFERENCES "connections"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "vm_events" ADD CONSTRAINT "vm_events_vm_fkey" FOREIGN KEY ("vmId") REFERENCES "virtual_machines"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Accounts for organisations (issue 23): user lifecycle, single sign-on, two-factor and
-- per-connection visibility. Existing users and tokens keep seeing every connection
-- ("allConnections" defaults to true); nothing an upgrade finds is hidden from anyone.

-- Accounts that sign in only through a single sign-on provider have no password.
ALTER TABLE "users" ALTER COLUMN "passwordHash" DROP NOT NULL;
ALTER TABLE "users" ADD COLUMN "mustChangePassword" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "users" ADD COLUMN "allConnections" BOOLEAN NOT NULL DEFAULT true;
ALTER TABLE "users" ADD COLUMN "totpCiphertext" TEXT;
ALTER TABLE "users" ADD COLUMN "totpKeyId" TEXT;
ALTER TABLE "users" ADD COLUMN "totpEnabledAt" TIMESTAMPTZ(3);

ALTER TABLE "sessions" ADD COLUMN "address" TEXT;
ALTER TABLE "sessions" ADD COLUMN "userAgent" TEXT;
ALTER TABLE "sessions" ADD COLUMN "method" TEXT NOT NULL DEFAULT 'password';

ALTER TABLE "api_tokens" ADD COLUMN "allConnections" BOOLEAN NOT NULL DEFAULT true;

-- Entries keep the actor's name when the user is deleted. Earlier entries get it from the user
-- that still exists.
ALTER TABLE "audit_logs" ADD COLUMN "actorName" TEXT;
UPDATE "audit_logs" SET "actorName" = u."username" FROM "users" AS u WHERE u."id" = "audit_logs"."actorUserId";

CREATE TYPE "IdentityProviderKind" AS ENUM ('OIDC', 'LDAP');

CREATE TABLE "user_identities" (
    "id" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "provider" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "externalGroups" TEXT[],
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastSignInAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "user_identities_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "user_identities_provider_subject_key" ON "user_identities"("provider", "subject");
CREATE INDEX "user_identities_user_idx" ON "user_identities"("userId");
ALTER TABLE "user_identities" ADD CONSTRAINT "user_identities_user_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "recovery_codes" (
    "id" UUID NOT NULL,
    "userId" UUID NOT NULL,
    "codeHash" TEXT NOT NULL,
    "usedAt" TIMESTAMPTZ(3),
    CONSTRAINT "recovery_codes_pkey" PRIMARY KEY ("id")
);
CREATE INDEX "recovery_codes_user_idx" ON "recovery_codes"("userId");
ALTER TABLE "recovery_codes" ADD CONSTRAINT "recovery_codes_user_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "sign_in_challenges" (
    "id" UUID NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "userId" UUID NOT NULL,
    "address" TEXT,
    "userAgent" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "sign_in_challenges_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "sign_in_challenges_token_hash_key" ON "sign_in_challenges"("tokenHash");
CREATE INDEX "sign_in_challenges_user_idx" ON "sign_in_challenges"("userId");
ALTER TABLE "sign_in_challenges" ADD CONSTRAINT "sign_in_challenges_user_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "sso_sign_in_requests" (
    "id" UUID NOT NULL,
    "stateHash" TEXT NOT NULL,
    "provider" TEXT NOT NULL,
    "nonce" TEXT NOT NULL,
    "codeVerifier" TEXT NOT NULL,
    "returnTo" TEXT,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "sso_sign_in_requests_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "sso_sign_in_requests_state_hash_key" ON "sso_sign_in_requests"("stateHash");
CREATE INDEX "sso_sign_in_requests_expires_idx" ON "sso_sign_in_requests"("expiresAt");

CREATE TABLE "identity_providers" (
    "id" UUID NOT NULL,
    "slug" TEXT NOT NULL,
    "kind" "IdentityProviderKind" NOT NULL,
    "displayName" TEXT NOT NULL,
    "isEnabled" BOOLEAN NOT NULL DEFAULT true,
    "settings" JSONB NOT NULL DEFAULT '{}',
    "secretCiphertext" TEXT,
    "secretKeyId" TEXT,
    "groupMappings" JSONB NOT NULL DEFAULT '[]',
    "createJustInTime" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "identity_providers_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "identity_providers_slug_key" ON "identity_providers"("slug");

CREATE TABLE "connection_groups" (
    "id" UUID NOT NULL,
    "name" TEXT NOT NULL,
    "description" TEXT NOT NULL DEFAULT '',
    "createdAt" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "connection_groups_pkey" PRIMARY KEY ("id")
);
CREATE UNIQUE INDEX "connection_groups_name_key" ON "connection_groups"("name");

CREATE TABLE "connection_group_members" (
    "connectionId" UUID NOT NULL,
    "groupId" UUID NOT NULL,
    CONSTRAINT "connection_group_members_pkey" PRIMARY KEY ("connectionId", "groupId")
);
CREATE INDEX "connection_group_members_group_idx" ON "connection_group_members"("groupId");
ALTER TABLE "connection_group_members" ADD CONSTRAINT "connection_group_members_connection_fkey" FOREIGN KEY ("connectionId") REFERENCES "connections"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "connection_group_members" ADD CONSTRAINT "connection_group_members_group_fkey" FOREIGN KEY ("groupId") REFERENCES "connection_groups"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "user_group_grants" (
    "userId" UUID NOT NULL,
    "groupId" UUID NOT NULL,
    "source" TEXT,
    CONSTRAINT "user_group_grants_pkey" PRIMARY KEY ("userId", "groupId")
);
CREATE INDEX "user_group_grants_group_idx" ON "user_group_grants"("groupId");
ALTER TABLE "user_group_grants" ADD CONSTRAINT "user_group_grants_user_fkey" FOREIGN KEY ("userId") REFERENCES "users"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "user_group_grants" ADD CONSTRAINT "user_group_grants_group_fkey" FOREIGN KEY ("groupId") REFERENCES "connection_groups"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "api_token_group_grants" (
    "tokenId" UUID NOT NULL,
    "groupId" UUID NOT NULL,
    CONSTRAINT "api_token_group_grants_pkey" PRIMARY KEY ("tokenId", "groupId")
);
CREATE INDEX "api_token_group_grants_group_idx" ON "api_token_group_grants"("groupId");
ALTER TABLE "api_token_group_grants" ADD CONSTRAINT "api_token_group_grants_token_fkey" FOREIGN KEY ("tokenId") REFERENCES "api_tokens"("id") ON DELETE CASCADE ON UPDATE CASCADE;
ALTER TABLE "api_token_group_grants" ADD CONSTRAINT "api_token_group_grants_group_fkey" FOREIGN KEY ("groupId") REFERENCES "connection_groups"("id") ON DELETE CASCADE ON UPDATE CASCADE;

CREATE TABLE "app_settings" (
    "key" TEXT NOT NULL,
    "value" JSONB NOT NULL,
    "updatedAt" TIMESTAMPTZ(3) NOT NULL,
    CONSTRAINT "app_settings_pkey" PRIMARY KEY ("key")
);

-- Group names are unique case-insensitively, as user names are.
CREATE UNIQUE INDEX "connection_groups_name_lower_key" ON "connection_groups" (lower("name"));

// API tokens for integrators: shown once, stored as a hash, limited to a subset of the creator's
// capabilities, revocable, with the time of last use.
import type { Capability, PrismaClient } from "@hyperlens/db";
import { ValidationError } from "../errors.ts";
import { checkTokenGroups } from "../services/connection-groups.ts";
import { hashSecret, newSecret } from "./tokens.ts";
import { effectiveCapabilities, type Viewer } from "./viewer.ts";
import { tokenScope } from "./visibility.ts";

const TOKEN_PREFIX = "hlk_";
const TOUCH_INTERVAL_MS = 60_000;

/** Creates a token for the viewer; the returned `token` is the only time the secret exists. */
export async function createApiToken(
  prisma: PrismaClient,
  creator: Viewer,
  input: {
    name: string;
    capabilities: Capability[];
    expiresAt?: Date | null;
    /** false: the token sees only `groupIds` (a subset of the creator's groups). Default true. */
    allConnections?: boolean;
    groupIds?: readonly string[];
  },
) {
  const missing = input.capabilities.filter((c) => !creator.capabilities.has(c));
  if (missing.length) {
    throw new ValidationError(
      `You cannot give a token capabilities you do not hold: ${missing.join(", ")}.`,
      "capabilities",
    );
  }
  const allConnections = input.allConnections ?? true;
  const groupIds = allConnections
    ? []
    : await checkTokenGroups(prisma, creator, input.groupIds ?? []);
  if (!allConnections && groupIds.length === 0)
    throw new ValidationError(
      "Choose at least one connection group, or let the token see all you see.",
      "groupIds",
    );
  const token = newSecret(TOKEN_PREFIX);
  const apiToken = await prisma.apiToken.create({
    data: {
      name: input.name,
      prefix: token.slice(0, TOKEN_PREFIX.length + 6),
      tokenHash: hashSecret(token),
      capabilities: [...new Set(input.capabilities)],
      createdById: creator.userId,
      expiresAt: input.expiresAt ?? null,
      allConnections,
      groupGrants: { create: groupIds.map((groupId) => ({ groupId })) },
    },
  });
  return { token, apiToken };
}

/** The viewer behind a bearer token, or null when unknown, revoked, expired or disabled. */
export async function viewerFromApiToken(
  prisma: PrismaClient,
  token: string,
  now = new Date(),
): Promise<Viewer | null> {
  if (!token.startsWith(TOKEN_PREFIX)) return null;
  const row = await prisma.apiToken.findUnique({
    where: { tokenHash: hashSecret(token) },
    include: { createdBy: true },
  });
  if (
    !row ||
    row.revokedAt ||
    (row.expiresAt && row.expiresAt <= now) ||
    row.createdBy.disabledAt
  ) {
    return null;
  }
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() > TOUCH_INTERVAL_MS) {
    await prisma.apiToken.update({ where: { id: row.id }, data: { lastUsedAt: now } });
  }
  // A token never holds more than its creator holds today.
  const creatorCapabilities = effectiveCapabilities(row.createdBy);
  return {
    kind: "API_TOKEN",
    userId: row.createdBy.id,
    username: row.createdBy.username,
    isAdmin: false,
    capabilities: new Set(row.capabilities.filter((c) => creatorCapabilities.has(c))),
    scope: await tokenScope(prisma, row, row.createdBy),
    tokenId: row.id,
  };
}

/** Reads a bearer token from an Authorization header. */
export function bearerToken(header: string | null | undefined): string | undefined {
  const match = /^Bearer\s+(\S+)$/i.exec(header ?? "");
  return match?.[1];
}

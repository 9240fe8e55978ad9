// Connection groups ("tenants"): named sets of connections that users and tokens are granted
// (docs/security.md, the permission model). The rules live here, for GraphQL and the tests.
import { Prisma, type PrismaClient } from "@hyperlens/db";
import type { Viewer } from "../auth/viewer.ts";
import { visibleGroups } from "../auth/visibility.ts";
import { ForbiddenError, NotFoundError, ValidationError } from "../errors.ts";
import { recordAudit } from "./audit.ts";
import { checkAuthorityOver } from "./users.ts";

const MAX_NAME = 100;
const MAX_DESCRIPTION = 1000;

function groupName(name: string): string {
  const trimmed = name.trim();
  if (trimmed.length < 1 || trimmed.length > MAX_NAME)
    throw new ValidationError(`Use 1–${MAX_NAME} characters.`, "name");
  return trimmed;
}

function groupDescription(description: string | null | undefined): string | undefined {
  if (description === null || description === undefined) return undefined;
  const trimmed = description.trim();
  if (trimmed.length > MAX_DESCRIPTION)
    throw new ValidationError(`Use at most ${MAX_DESCRIPTION} characters.`, "description");
  return trimmed;
}

function nameTaken(name: string) {
  return new ValidationError(`A group named ${name} already exists.`, "name");
}

/** Another group with this name, compared case-insensitively (as the unique index does). */
async function clashingGroup(prisma: PrismaClient, name: string, exceptId?: string) {
  // lower() = lower(), not ILIKE: "_" and "%" in a name are characters, not wildcards.
  const rows = await prisma.$queryRaw<{ id: string; name: string }[]>`
    SELECT "id", "name" FROM "connection_groups" WHERE lower("name") = lower(${name})`;
  return rows.find((row) => row.id !== exceptId) ?? null;
}

/** Two saves of one name at once: the lower(name) unique index refuses the second. */
function refuseDuplicate(name: string) {
  return (error: unknown): never => {
    if (error instanceof Prisma.PrismaClientKnownRequestError && error.code === "P2002")
      throw nameTaken(name);
    throw error;
  };
}

/** Creates a group; names are unique, case-insensitively. */
export async function createConnectionGroup(
  prisma: PrismaClient,
  input: { name: string; description?: string | null },
  actor: Viewer | null,
) {
  const name = groupName(input.name);
  const description = groupDescription(input.description) ?? "";
  const clash = await clashingGroup(prisma, name);
  if (clash) throw nameTaken(clash.name);
  const group = await prisma.connectionGroup
    .create({ data: { name, description } })
    .catch(refuseDuplicate(name));
  await recordAudit(prisma, actor, {
    action: "connectionGroup.create",
    targetType: "connectionGroup",
    targetId: group.id,
    details: { name, description },
  });
  return group;
}

/** Renames a group or changes its description. */
export async function updateConnectionGroup(
  prisma: PrismaClient,
  id: string,
  input: { name?: string | null; description?: string | null },
  actor: Viewer | null,
) {
  const existing = await prisma.connectionGroup.findUnique({ where: { id } });
  if (!existing) throw new NotFoundError("No such connection group.");
  const name = input.name === null || input.name === undefined ? undefined : groupName(input.name);
  const description = groupDescription(input.description);
  if (name !== undefined) {
    const clash = await clashingGroup(prisma, name, id);
    if (clash) throw nameTaken(clash.name);
  }
  const group = await prisma.connectionGroup
    .update({ where: { id }, data: { name, description } })
    .catch(refuseDuplicate(name ?? existing.name));
  await recordAudit(prisma, actor, {
    action: "connectionGroup.update",
    targetType: "connectionGroup",
    targetId: id,
    details: {
      name: group.name,
      changed: [
        ...(name !== undefined ? ["name"] : []),
        ...(description !== undefined ? ["description"] : []),
      ],
    },
  });
  return group;
}

/** Tells every replica that these users' scopes changed; call it once the change is committed. */
export type AnnounceScopeChange = (userId: string) => void;

/**
 * Whose scope a change to these groups changes: the users granted them and the creators of
 * tokens limited to them (a token's scope is computed from its creator's, and its subscriptions
 * are watched under the creator's id).
 */
async function holdersOfGroups(
  prisma: PrismaClient | Prisma.TransactionClient,
  groupIds: readonly string[],
): Promise<string[]> {
  if (groupIds.length === 0) return [];
  const [users, tokens] = await Promise.all([
    prisma.userGroupGrant.findMany({
      where: { groupId: { in: [...groupIds] } },
      select: { userId: true },
    }),
    prisma.apiTokenGroupGrant.findMany({
      where: { groupId: { in: [...groupIds] } },
      select: { token: { select: { createdById: true } } },
    }),
  ]);
  return [...new Set([...users.map((u) => u.userId), ...tokens.map((t) => t.token.createdById)])];
}

/** Deletes a group: its connections stay; who was granted only this group no longer sees them. */
export async function deleteConnectionGroup(
  prisma: PrismaClient,
  id: string,
  actor: Viewer | null,
  announce: AnnounceScopeChange,
) {
  const existing = await prisma.connectionGroup.findUnique({ where: { id } });
  if (!existing) throw new NotFoundError("No such connection group.");
  const holders = await holdersOfGroups(prisma, [id]);
  await prisma.$transaction(async (tx) => {
    await tx.connectionGroup.delete({ where: { id } });
    await recordAudit(tx, actor, {
      action: "connectionGroup.delete",
      targetType: "connectionGroup",
      targetId: id,
      details: { name: existing.name },
    });
  });
  // TRAP: docs/behaviour.md §7.17 — open subscriptions keep the scope they opened with until told.
  for (const userId of holders) announce(userId);
  return existing;
}

/** The distinct ids, each naming a group that exists; a ValidationError on `field` otherwise. */
async function existingGroups(
  prisma: PrismaClient,
  groupIds: readonly string[],
  field: string,
  where: Prisma.ConnectionGroupWhereInput = {},
) {
  const ids = [...new Set(groupIds)];
  const found = await prisma.connectionGroup.findMany({
    where: { id: { in: ids }, AND: [where] },
    select: { id: true },
  });
  if (found.length !== ids.length)
    throw new ValidationError("One of the chosen groups does not exist (any more).", field);
  return ids;
}

/**
 * Checks the groups a viewer puts a connection in. A viewer who does not see every connection may
 * only choose among their own groups, and must choose one: else the connection they save would
 * vanish from their own view.
 */
export async function checkConnectionGroupChoice(
  prisma: PrismaClient,
  viewer: Viewer | null,
  groupIds: readonly string[] | null | undefined,
  isNew: boolean,
): Promise<string[] | undefined> {
  const isLimited = !viewer?.scope.all;
  if (groupIds === null || groupIds === undefined) {
    if (isNew && isLimited)
      throw new ValidationError(
        "Choose at least one of your connection groups, or the connection would be hidden from you.",
        "groupIds",
      );
    return undefined;
  }
  if (isLimited && groupIds.length === 0)
    throw new ValidationError(
      "Choose at least one of your connection groups, or the connection would be hidden from you.",
      "groupIds",
    );
  return existingGroups(prisma, groupIds, "groupIds", visibleGroups(viewer));
}

/**
 * Sets the groups a connection is in, as far as the viewer sees groups: membership of a group
 * they are not shown is kept as it is.
 */
export async function setConnectionGroups(
  prisma: PrismaClient | Prisma.TransactionClient,
  connectionId: string,
  groupIds: readonly string[],
  actor: Viewer | null,
  announce: AnnounceScopeChange,
) {
  const shown = visibleGroups(actor);
  const before = await prisma.connectionGroupMember.findMany({
    where: { connectionId, group: shown },
    select: { groupId: true },
  });
  const removed = before.map((m) => m.groupId).filter((id) => !groupIds.includes(id));
  const added = groupIds.filter((id) => !before.some((m) => m.groupId === id));
  if (removed.length)
    await prisma.connectionGroupMember.deleteMany({
      where: { connectionId, groupId: { in: removed } },
    });
  if (added.length)
    await prisma.connectionGroupMember.createMany({
      data: added.map((groupId) => ({ connectionId, groupId })),
      skipDuplicates: true,
    });
  if (added.length || removed.length)
    await recordAudit(prisma, actor, {
      action: "connection.groups",
      // A connection's entry: hidden from whoever does not see the connection.
      targetType: "connection",
      targetId: connectionId,
      details: { added, removed },
    });
  for (const userId of await holdersOfGroups(prisma, [...added, ...removed])) announce(userId);
}

/** Sets which connections a user sees: every one, or those of the chosen groups. */
export async function setUserConnectionGrants(
  prisma: PrismaClient,
  userId: string,
  input: { allConnections: boolean; groupIds: readonly string[] },
  actor: Viewer | null,
  announce: AnnounceScopeChange,
) {
  const user = await prisma.user.findUnique({ where: { id: userId } });
  if (!user) throw new NotFoundError("No such user.");
  checkAuthorityOver(actor, user);
  const groupIds = await existingGroups(prisma, input.groupIds, "groupIds");
  checkGrantWithinOwn(actor, input.allConnections, groupIds);
  const updated = await prisma.$transaction(async (tx) => {
    await tx.userGroupGrant.deleteMany({ where: { userId, groupId: { notIn: groupIds } } });
    await tx.userGroupGrant.createMany({
      data: groupIds.map((groupId) => ({ userId, groupId })),
      skipDuplicates: true,
    });
    const updated = await tx.user.update({
      where: { id: userId },
      data: { allConnections: input.allConnections },
    });
    await recordAudit(tx, actor, {
      action: "user.grants",
      targetType: "user",
      targetId: userId,
      details: { username: user.username, allConnections: input.allConnections, groupIds },
    });
    return updated;
  });
  announce(userId);
  return updated;
}

/** A user manager who sees only some connections grants no more than they see. */
function checkGrantWithinOwn(
  actor: Viewer | null,
  allConnections: boolean,
  groupIds: readonly string[],
) {
  if (!actor || actor.isAdmin || actor.scope.all) return;
  // TRAP: docs/behaviour.md §7.16 — a tenant's user manager granting "all connections" sees every tenant.
  if (allConnections)
    throw new ForbiddenError("You see only some connections, so you cannot grant all of them.");
  const own = new Set(actor.scope.groupIds);
  if (groupIds.some((id) => !own.has(id))) {
    throw new ValidationError("You can only grant connection groups you are granted.", "groupIds");
  }
}

/**
 * Checks the groups a new token is limited to: a subset of what its creator sees. A creator who
 * sees every connection may choose any group; others only among their own.
 */
export async function checkTokenGroups(
  prisma: PrismaClient,
  creator: Viewer,
  groupIds: readonly string[],
): Promise<string[]> {
  const scope = creator.scope;
  // TRAP: docs/behaviour.md §7.9 — a token limited to a group its creator is not granted would
  // see connections its creator cannot.
  if (!scope.all && groupIds.some((id) => !scope.groupIds.includes(id)))
    throw new ValidationError(
      "A token can only be limited to groups you are granted yourself.",
      "groupIds",
    );
  return existingGroups(prisma, groupIds, "groupIds");
}

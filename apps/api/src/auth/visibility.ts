// Who sees which connections (docs/security.md, the permission model; docs/behaviour.md §7.9):
// the one place the scope is computed and the one place it becomes Prisma conditions. Every
// resolver that reads inventory takes its condition from here, so a row of a connection the
// viewer is not granted is, to them, a row that does not exist.
import type { Prisma, PrismaClient } from "@hyperlens/db";
import type { ConnectionScope, Viewer } from "./viewer.ts";

const EVERYTHING: ConnectionScope = { all: true };

/** The connections of `groupIds`, as a scope. */
async function scopeOfGroups(
  prisma: PrismaClient,
  groupIds: readonly string[],
): Promise<ConnectionScope> {
  if (groupIds.length === 0) return { all: false, groupIds: [], connectionIds: [] };
  const members = await prisma.connectionGroupMember.findMany({
    where: { groupId: { in: [...groupIds] } },
    select: { connectionId: true },
  });
  return {
    all: false,
    groupIds: [...groupIds].sort(),
    connectionIds: [...new Set(members.map((m) => m.connectionId))].sort(),
  };
}

/** What a user sees: administrators and "all connections" users everything, others their groups. */
export async function userScope(
  prisma: PrismaClient,
  user: { id: string; isAdmin: boolean; allConnections: boolean },
): Promise<ConnectionScope> {
  if (user.isAdmin || user.allConnections) return EVERYTHING;
  const grants = await prisma.userGroupGrant.findMany({
    where: { userId: user.id },
    select: { groupId: true },
  });
  return scopeOfGroups(
    prisma,
    grants.map((g) => g.groupId),
  );
}

/**
 * What a token sees: with "all connections", what its creator sees; else its groups that the
 * creator is granted today.
 */
export async function tokenScope(
  prisma: PrismaClient,
  token: { id: string; allConnections: boolean },
  creator: { id: string; isAdmin: boolean; allConnections: boolean },
): Promise<ConnectionScope> {
  const creatorScope = await userScope(prisma, creator);
  if (token.allConnections) return creatorScope;
  const grants = await prisma.apiTokenGroupGrant.findMany({
    where: { tokenId: token.id },
    select: { groupId: true },
  });
  // TRAP: docs/behaviour.md §7.9 — a token never sees more than its creator does today: a group
  // taken from the creator is taken from their tokens at once.
  const groupIds = grants
    .map((g) => g.groupId)
    .filter((id) => creatorScope.all || creatorScope.groupIds.includes(id));
  return scopeOfGroups(prisma, groupIds);
}

/** Matches no row: the condition for no viewer at all. */
const NOTHING = { in: [] as string[] };

/** The condition on a connection-id column: the viewer's connections, or any. */
function connectionIdIn(viewer: Viewer | null): { in: string[] } | undefined {
  if (!viewer) return NOTHING;
  return viewer.scope.all ? undefined : { in: [...viewer.scope.connectionIds] };
}

/** Whether the viewer sees the connection with this id (it may not exist). */
export function canSeeConnection(viewer: Viewer | null, connectionId: string): boolean {
  if (!viewer) return false;
  return viewer.scope.all || viewer.scope.connectionIds.includes(connectionId);
}

/** The ids of the connections the viewer sees, for raw SQL; null when they see every one. */
export function visibleConnectionIds(viewer: Viewer | null): string[] | null {
  return connectionIdIn(viewer)?.in ?? null;
}

/** The connections the viewer sees. */
export function visibleConnections(viewer: Viewer | null): Prisma.ConnectionWhereInput {
  const id = connectionIdIn(viewer);
  return id ? { id } : {};
}

/** Rows that belong to a connection (guests, nodes, edge gateways, sync runs) the viewer sees. */
export function ofVisibleConnections(viewer: Viewer | null): { connectionId?: { in: string[] } } {
  const connectionId = connectionIdIn(viewer);
  return connectionId ? { connectionId } : {};
}

/** Change-feed events the viewer sees: those of the connections they see (docs/behaviour.md §14.6). */
export function visibleInventoryEvents(viewer: Viewer | null): Prisma.InventoryEventWhereInput {
  return ofVisibleConnections(viewer);
}

/** Guests the viewer sees. */
export function visibleVms(viewer: Viewer | null): Prisma.VirtualMachineWhereInput {
  return ofVisibleConnections(viewer);
}

/** Rows that belong to a guest (NICs, addresses, disks, events) the viewer sees. */
export function ofVisibleVms(viewer: Viewer | null): { vm?: Prisma.VirtualMachineWhereInput } {
  const connectionId = connectionIdIn(viewer);
  return connectionId ? { vm: { connectionId } } : {};
}

/**
 * The connection groups whose names the viewer is shown: all of them to a viewer who manages
 * users or sees every connection; otherwise only those granted.
 */
export function visibleGroups(viewer: Viewer | null): Prisma.ConnectionGroupWhereInput {
  if (!viewer) return { id: NOTHING };
  if (viewer.scope.all || viewer.capabilities.has("MANAGE_USERS")) return {};
  return { id: { in: [...viewer.scope.groupIds] } };
}

/**
 * Audit entries the viewer may read: none about a connection they do not see (an entry names the
 * connection and what changed).
 */
export function visibleAuditEntries(viewer: Viewer | null): Prisma.AuditLogWhereInput {
  const id = connectionIdIn(viewer);
  if (!id) return {};
  return {
    OR: [{ targetType: { not: "connection" } }, { targetId: null }, { targetId: { in: id.in } }],
  };
}

// A user's own signed-in sessions: list them, end one, end all but this one. Only ever the
// caller's own: another user's session id is answered as no such session.
import type { Viewer } from "../auth/viewer.ts";
import { NotFoundError } from "../errors.ts";
import { recordAudit } from "./audit.ts";
import type { UserLifecycle } from "./users.ts";

/** Ends one of the viewer's own sessions (this one too: that is signing out). */
export async function revokeOwnSession(life: UserLifecycle, viewer: Viewer, sessionId: string) {
  // TRAP: docs/behaviour.md §12.9 — the userId condition is what stops ending another user's session.
  const { count } = await life.prisma.session.deleteMany({
    where: { id: sessionId, userId: viewer.userId },
  });
  if (count === 0) throw new NotFoundError("No such session.");
  await recordAudit(life.prisma, viewer, {
    action: "session.revoke",
    targetType: "session",
    targetId: sessionId,
  });
  await life.announce(viewer.userId);
}

/** Ends every session of the viewer's but the one asking; how many ended. */
export async function signOutEverywhereElse(life: UserLifecycle, viewer: Viewer) {
  const { count } = await life.prisma.session.deleteMany({
    where: {
      userId: viewer.userId,
      ...(viewer.sessionId ? { id: { not: viewer.sessionId } } : {}),
    },
  });
  await recordAudit(life.prisma, viewer, {
    action: "session.signOutEverywhereElse",
    targetType: "user",
    targetId: viewer.userId,
    details: { endedSessions: count },
  });
  await life.announce(viewer.userId);
  return count;
}

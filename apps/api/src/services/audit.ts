import { userInfo } from "node:os";
import type { Prisma, PrismaClient } from "@hyperlens/db";

type Writer = PrismaClient | Prisma.TransactionClient;

/** Who an audit entry names: a viewer (user or token), or the command line. */
export interface AuditActor {
  userId?: string | undefined;
  tokenId?: string | undefined;
  /** Kept on the entry as `actorName`, so it still names the actor once the user is deleted. */
  username: string;
}

/** The actor of a `hyperlens` command: `cli:` and the operating-system user who ran it. */
export function commandLineActor(): AuditActor {
  let osUser = "unknown";
  try {
    osUser = userInfo().username;
  } catch {
    // No passwd entry for this uid (some containers): the entry still says it came from the CLI.
  }
  return { username: `cli:${osUser}` };
}

/** Records who changed what. Callers pass field names for secrets, never their values. */
export async function recordAudit(
  prisma: Writer,
  actor: AuditActor | null,
  entry: { action: string; targetType: string; targetId?: string; details?: Prisma.InputJsonValue },
) {
  await prisma.auditLog.create({
    data: {
      actorUserId: actor?.userId ?? null,
      actorTokenId: actor?.tokenId ?? null,
      actorName: actor?.username ?? null,
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.targetId ?? null,
      details: entry.details ?? {},
    },
  });
}

import type { Prisma, PrismaClient } from "@hyperlens/db";
import type { Viewer } from "../auth/viewer.ts";

type Writer = PrismaClient | Prisma.TransactionClient;

/** Records who changed what. Callers pass field names for secrets, never their values. */
export async function recordAudit(
  prisma: Writer,
  actor: Viewer | null,
  entry: { action: string; targetType: string; targetId?: string; details?: Prisma.InputJsonValue },
) {
  await prisma.auditLog.create({
    data: {
      actorUserId: actor?.userId ?? null,
      actorTokenId: actor?.tokenId ?? null,
      action: entry.action,
      targetType: entry.targetType,
      targetId: entry.targetId ?? null,
      details: entry.details ?? {},
    },
  });
}

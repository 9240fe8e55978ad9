// Who may take a backup of the embedded database over HTTP, and taking it. The archive holds every
// user's password hash, every token's hash and every sealed connection secret, so only an API
// token that holds every capability, made by a user who is an administrator today, may take one.
import { CAPABILITIES } from "@hyperlens/shared";
import type { Viewer } from "../auth/viewer.ts";
import type { AppServices } from "../context.ts";
import { recordAudit } from "./audit.ts";

/** What a backup request came to: the archive, or why there is none. */
export type BackupOutcome =
  | { kind: "archive"; archive: Uint8Array }
  | { kind: "forbidden"; message: string }
  | { kind: "not-embedded"; message: string };

/** Said wherever a backup is refused on PostgreSQL (HTTP answer and CLI). */
export const USE_PG_DUMP =
  "This Hyperlens uses PostgreSQL: back it up with pg_dump (docs/operations.md, " +
  '"Backups and restore"); hyperlens backup archives the embedded database only.';

const FORBIDDEN =
  "A backup needs an API token that holds every capability, created by an administrator.";

async function mayBackUp(services: AppServices, viewer: Viewer): Promise<boolean> {
  // TRAP: docs/security.md "Backups" — a browser session never takes one: a link on another site
  // could make an administrator's browser fetch the whole database.
  if (viewer.kind !== "API_TOKEN") return false;
  if (!CAPABILITIES.every((c) => viewer.capabilities.has(c))) return false;
  // A token's viewer never carries isAdmin; its creator must be an administrator now.
  const creator = await services.prisma.user.findUnique({
    where: { id: viewer.userId },
    select: { isAdmin: true, disabledAt: true },
  });
  return Boolean(creator?.isAdmin && !creator.disabledAt);
}

/**
 * Takes an archive of the embedded database for `viewer`, audited whether it is taken or refused
 * (the archive itself does not hold its own audit entry: it is written once the archive exists).
 */
export async function takeDatabaseBackup(
  services: AppServices,
  viewer: Viewer,
): Promise<BackupOutcome> {
  if (!(await mayBackUp(services, viewer))) {
    await recordAudit(services.prisma, viewer, {
      action: "database.backup.refused",
      targetType: "database",
    });
    return { kind: "forbidden", message: FORBIDDEN };
  }
  const { backup } = services.db;
  if (!backup) return { kind: "not-embedded", message: USE_PG_DUMP };
  const archive = await backup();
  await recordAudit(services.prisma, viewer, {
    action: "database.backup",
    targetType: "database",
    details: { bytes: archive.byteLength },
  });
  services.logger.info(
    { bytes: archive.byteLength, tokenId: viewer.tokenId },
    "Database backup taken",
  );
  return { kind: "archive", archive };
}

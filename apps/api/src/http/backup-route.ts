// GET /admin/backup: the embedded database's archive for `hyperlens backup`, to an administrator's
// API token only (services/database-backup.ts says who).
import type { IncomingMessage, ServerResponse } from "node:http";
import { BACKUP_MEDIA_TYPE } from "@hyperlens/db";
import { bearerToken, viewerFromApiToken } from "../auth/api-tokens.ts";
import type { AppServices } from "../context.ts";
import { ERROR_CODES, type ErrorCode, refusalBody } from "../errors.ts";
import { takeDatabaseBackup } from "../services/database-backup.ts";

/** Where the server answers backup requests. */
export const BACKUP_PATH = "/admin/backup";

function refuse(res: ServerResponse, status: number, code: ErrorCode, message: string) {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
  res.end(JSON.stringify(refusalBody(message, code)));
}

/** Answers one request for {@link BACKUP_PATH}. */
export async function answerBackup(
  req: IncomingMessage,
  res: ServerResponse,
  services: AppServices,
): Promise<void> {
  if (req.method !== "GET") {
    res.setHeader("allow", "GET");
    return refuse(res, 405, ERROR_CODES.BAD_REQUEST, "Use GET.");
  }
  const token = bearerToken(req.headers.authorization);
  const viewer = token ? await viewerFromApiToken(services.prisma, token) : null;
  if (!viewer) {
    return refuse(
      res,
      401,
      ERROR_CODES.UNAUTHENTICATED,
      "A backup needs an administrator's API token (Authorization: Bearer hlk_…).",
    );
  }
  let outcome: Awaited<ReturnType<typeof takeDatabaseBackup>>;
  try {
    outcome = await takeDatabaseBackup(services, viewer);
  } catch (error) {
    services.logger.error({ err: error }, "Database backup failed");
    return refuse(
      res,
      500,
      ERROR_CODES.INTERNAL_SERVER_ERROR,
      "The backup failed; see the server log.",
    );
  }
  if (outcome.kind === "forbidden") return refuse(res, 403, ERROR_CODES.FORBIDDEN, outcome.message);
  if (outcome.kind === "not-embedded")
    return refuse(res, 409, ERROR_CODES.BAD_REQUEST, outcome.message);
  const stamp = new Date().toISOString().replace(/[:.]/g, "-");
  res.writeHead(200, {
    "content-type": BACKUP_MEDIA_TYPE,
    "content-length": outcome.archive.byteLength,
    "content-disposition": `attachment; filename="hyperlens-${stamp}.tar.gz"`,
    "cache-control": "no-store",
  });
  res.end(outcome.archive);
}

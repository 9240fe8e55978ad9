// The inventory exports for other tools: GET /inventory/ansible (Ansible's dynamic inventory) and
// GET /sd/prometheus (Prometheus' HTTP service discovery), to an API token (Authorization: Bearer)
// or a signed-in session holding VIEW_INVENTORY, each showing what the caller sees
// (docs/behaviour.md §14.10–§14.19; docs/api.md "Inventory exports").
import type { IncomingMessage, ServerResponse } from "node:http";
import { authenticate } from "../auth/authenticate.ts";
import type { Viewer } from "../auth/viewer.ts";
import type { Config } from "../config.ts";
import type { AppServices } from "../context.ts";
import { ERROR_CODES, type ErrorCode, refusalBody } from "../errors.ts";
import { writeAnsibleInventory } from "./ansible-inventory.ts";
import { inventoryHosts } from "./inventory-hosts.ts";
import { InventoryQueryError, portsOf, readInventoryQuery } from "./inventory-query.ts";
import { matchesEtag, targetsEtag, writePrometheusTargets } from "./prometheus-sd.ts";
import { Utf8Chunks } from "./utf8-chunks.ts";
import { countRejectedCredentials } from "./yoga.ts";

export const ANSIBLE_INVENTORY_PATH = "/inventory/ansible";
export const PROMETHEUS_SD_PATH = "/sd/prometheus";

function refuse(
  res: ServerResponse,
  status: number,
  code: ErrorCode,
  message: string,
  parameter?: string,
) {
  const body = refusalBody(message, code);
  if (parameter !== undefined) Object.assign(body.errors[0]?.extensions ?? {}, { parameter });
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
  res.end(JSON.stringify(body));
}

/** Text for the response; each buffer's write resolves once the socket can take more. */
function chunksFor(res: ServerResponse): Utf8Chunks {
  return new Utf8Chunks(
    (chunk) =>
      new Promise<void>((resolve, reject) => {
        if (res.destroyed) return reject(new Error("the client went away"));
        if (res.write(chunk)) return resolve();
        const done = (error?: Error) => {
          res.off("drain", done);
          res.off("close", gone);
          if (error) reject(error);
          else resolve();
        };
        const gone = () => done(new Error("the client went away"));
        res.once("drain", done);
        res.once("close", gone);
      }),
  );
}

/**
 * `Authorization: <token>` read as `Bearer <token>`: Prometheus' HTTP discovery (2.42, Debian 12)
 * sends `authorization.credentials` without the scheme unless `type: Bearer` is written out.
 */
function schemeless(authorization: string | undefined): string | undefined {
  return authorization && /^\S+$/.test(authorization) ? `Bearer ${authorization}` : authorization;
}

/** The caller, or a refusal already sent (401 without credentials, 403 without view). */
async function viewerOf(
  req: IncomingMessage,
  res: ServerResponse,
  services: AppServices,
): Promise<Viewer | undefined> {
  const credentials = {
    authorization: schemeless(req.headers.authorization),
    cookie: req.headers.cookie,
  };
  const viewer = await authenticate(services.prisma, credentials, services.sessionPolicy);
  if (!viewer) {
    countRejectedCredentials(services, credentials);
    refuse(
      res,
      401,
      ERROR_CODES.UNAUTHENTICATED,
      req.headers.authorization
        ? "The API token is not valid (revoked, expired or mistyped)."
        : "Send an API token as Authorization: Bearer hlk_…, or sign in.",
    );
    return undefined;
  }
  // TRAP: docs/behaviour.md §14.18 — a session that must change its password may read nothing else.
  if (!viewer.capabilities.has("VIEW_INVENTORY") || viewer.mustChangePassword) {
    refuse(
      res,
      403,
      ERROR_CODES.FORBIDDEN,
      viewer.mustChangePassword
        ? "Choose a new password first."
        : "Reading the inventory needs the VIEW_INVENTORY capability.",
    );
    return undefined;
  }
  return viewer;
}

/** Returns the handler for the export paths; it answers false for any other path. */
export function createInventoryRoutes(services: AppServices, config: Config) {
  // The server's own order, kept for installs that set it before address rules existed; unset,
  // the address rules' primary applies (docs/behaviour.md §10.9).
  const isServerOrder =
    config.inventoryAddressFamily !== undefined || config.inventorySubnets.length > 0;
  const preference = isServerOrder
    ? { family: config.inventoryAddressFamily ?? "ipv4", subnets: config.inventorySubnets }
    : undefined;
  const streams = {
    async [ANSIBLE_INVENTORY_PATH](viewer: Viewer, params: URLSearchParams, res: ServerResponse) {
      const query = readInventoryQuery(params, { preference });
      res.writeHead(200, { "content-type": "application/json", "cache-control": "no-store" });
      await writeAnsibleInventory(
        inventoryHosts(services.prisma, viewer, query.where, query.preference),
        chunksFor(res),
      );
    },
    async [PROMETHEUS_SD_PATH](
      viewer: Viewer,
      params: URLSearchParams,
      res: ServerResponse,
      req: IncomingMessage,
    ) {
      const query = readInventoryQuery(params, {
        preference,
        defaultState: ["RUNNING"],
        extra: ["port"],
      });
      const ports = portsOf(params);
      const etag = await targetsEtag(
        services.prisma,
        viewer,
        query.where,
        `${query.canonical}|${JSON.stringify(query.preference)}`,
      );
      const headers = { etag, "cache-control": "no-cache" };
      if (matchesEtag(req.headers["if-none-match"], etag)) {
        res.writeHead(304, headers);
        res.end();
        return;
      }
      res.writeHead(200, { "content-type": "application/json", ...headers });
      await writePrometheusTargets(
        inventoryHosts(services.prisma, viewer, query.where, query.preference, { withMacs: false }),
        ports,
        chunksFor(res),
      );
    },
  };
  return async (req: IncomingMessage, res: ServerResponse, path: string): Promise<boolean> => {
    if (path !== ANSIBLE_INVENTORY_PATH && path !== PROMETHEUS_SD_PATH) return false;
    if (req.method !== "GET" && req.method !== "HEAD") {
      res.setHeader("allow", "GET");
      refuse(res, 405, ERROR_CODES.BAD_REQUEST, "Use GET.");
      return true;
    }
    const viewer = await viewerOf(req, res, services);
    if (!viewer) return true;
    const params = new URL(req.url ?? "/", "http://localhost").searchParams;
    try {
      await streams[path](viewer, params, res, req);
      res.end();
    } catch (error) {
      if (error instanceof InventoryQueryError) {
        refuse(res, 400, ERROR_CODES.BAD_USER_INPUT, error.message, error.parameter);
      } else if (!res.headersSent) {
        services.logger.error({ err: error }, "Inventory export failed");
        refuse(
          res,
          500,
          ERROR_CODES.INTERNAL_SERVER_ERROR,
          "The export failed; see the server log.",
        );
      } else {
        // Half a JSON document is worse than none: the client sees the connection cut.
        if (!res.destroyed) services.logger.error({ err: error }, "Inventory export failed");
        res.destroy();
      }
    }
    return true;
  };
}

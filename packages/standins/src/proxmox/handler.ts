import { setTimeout as sleep } from "node:timers/promises";
import type { StandinHandler, StandinReply } from "../http/reply.ts";
import type { ProxmoxAuth } from "./auth.ts";
import type { ProxmoxCluster } from "./model.ts";
import { ticketCapabilities } from "./privileges.ts";
import type { PveReplies } from "./replies.ts";
import { proxmoxRoutes } from "./routes.ts";
import type { VersionTraits } from "./versions.ts";

/** The path prefix of the JSON API. */
export const API_BASE = "/api2/json";

/** What {@link proxmoxHandler} needs. */
export interface ProxmoxHandlerDeps {
  cluster: ProxmoxCluster;
  traits: VersionTraits;
  auth: ProxmoxAuth;
  replies: PveReplies;
  /** pveproxy delays every 401 by ~3 s; 0 keeps tests fast. */
  authFailureDelayMs: number;
}

/**
 * pveproxy's request pipeline: login endpoint, then authentication, then the CSRF check for
 * cookie logins, then the route (501 when none), then the route's own checks.
 */
export function proxmoxHandler(deps: ProxmoxHandlerDeps): StandinHandler {
  const { auth, replies, traits, cluster } = deps;
  const routes = proxmoxRoutes({ cluster, traits, replies });
  const notImplemented = (method: string, path: string) =>
    replies.error(501, `Method '${method} ${path}' not implemented`);
  const unauthorized = async (reason: string, route?: string): Promise<StandinReply> => {
    if (deps.authFailureDelayMs > 0) await sleep(deps.authFailureDelayMs);
    return replies.bare(401, reason, route);
  };

  return async (request) => {
    if (!request.path.startsWith(`${API_BASE}/`))
      return notImplemented(request.method, request.path);
    const path = request.path.slice(API_BASE.length).replace(/\/+$/, "") || "/";

    if (path === "/access/ticket" && request.method === "POST") {
      const route = "POST /access/ticket";
      const grant = auth.login(new URLSearchParams(request.body));
      if (!grant) {
        if (deps.authFailureDelayMs > 0) await sleep(deps.authFailureDelayMs);
        return { ...replies.error(401, "authentication failure"), route };
      }
      const data: Record<string, unknown> = {
        CSRFPreventionToken: grant.csrf,
        cap: ticketCapabilities(grant.role, traits),
        ticket: grant.ticket,
        username: grant.username,
      };
      if (cluster.name !== undefined) data.clustername = cluster.name;
      return replies.ok(data, route);
    }
    // The GUI's login form probes this without credentials; pveproxy answers null.
    if (path === "/access/ticket" && request.method === "GET")
      return replies.ok(null, "GET /access/ticket");

    const result = auth.authenticate(request.headers);
    if (!result.ok) return unauthorized(result.reason);
    const { principal } = result;

    if (request.method !== "GET") {
      const csrf = request.headers.csrfpreventiontoken;
      if (principal.via === "ticket" && csrf !== principal.csrf) {
        return unauthorized("Permission denied - invalid csrf token");
      }
      // The stand-in serves reads only; pveproxy answers an unknown method+path with 501.
      return notImplemented(request.method, path);
    }

    for (const route of routes) {
      const match = route.pattern.exec(path);
      if (!match) continue;
      const params: Record<string, string> = {};
      route.names.forEach((name, i) => {
        params[name] = decodeURIComponent(match[i + 1] ?? "");
      });
      return route.handle({ params, query: request.query, principal });
    }
    return notImplemented(request.method, path);
  };
}

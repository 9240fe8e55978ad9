import {
  connectorHttp,
  type HyperClient,
  type HyperClientOptions,
  type HyperError,
  isHyperError,
} from "@hyperlens/hyper-http";
import { PROXMOX_ALLOWED_WRITES } from "./allowed-writes.ts";
import { type AgentOsInfo, parseAgentHostName, parseAgentOsInfo } from "./parse/agent-identity.ts";
import {
  type AgentNetworkResult,
  type GuestInterface,
  parseAgentNetwork,
} from "./parse/agent-interfaces.ts";
import { type ProxmoxClusterGuest, parseClusterGuests } from "./parse/cluster-resources.ts";
import { type ProxmoxClusterStatus, parseClusterStatus } from "./parse/cluster-status.ts";
import {
  type LxcConfig,
  parseLxcConfig,
  parseQemuConfig,
  type QemuConfig,
} from "./parse/guest-config.ts";
import { type ProxmoxGuestSummary, parseGuestList } from "./parse/guest-list.ts";
import { parseLxcInterfaces } from "./parse/lxc-interfaces.ts";
import { type ProxmoxNode, parseNodes } from "./parse/nodes.ts";
import { type ProxmoxPermissions, parsePermissions } from "./parse/permissions.ts";
import { type ProxmoxVersion, parseVersion } from "./parse/version.ts";
import { createTicketSession, TICKET_RENEW_AFTER_MS } from "./ticket-session.ts";
import { tokenAuthorization } from "./token-auth.ts";

/** How to log in: an API token (no login call) or user + password (ticket login). */
export type ProxmoxAuth =
  | { kind: "token" /** "user@realm!tokenname" */; tokenId: string; secret: string }
  | { kind: "password" /** "user@realm", e.g. "root@pam" */; username: string; password: string };

/** hyper-http options for a Proxmox connection; source and the login allowlist are filled in. */
export type ProxmoxHttpOptions = Omit<HyperClientOptions, "source" | "allowedWrites">;

/** Options of {@link createProxmoxClient}. */
export interface ProxmoxClientOptions {
  /**
   * A ready hyper-http client (it must allow {@link PROXMOX_ALLOWED_WRITES} for password logins),
   * or the options to build one.
   */
  http: HyperClient | ProxmoxHttpOptions;
  auth: ProxmoxAuth;
  /** Milliseconds since the epoch (default `Date.now`); lets tests age a ticket. */
  clock?: () => number;
  /** Log in again once a ticket is this old (default 1 h 45; tickets live 2 h). */
  ticketRenewAfterMs?: number;
  /**
   * Requests in flight to one node at once (default {@link DEFAULT_REQUESTS_PER_NODE}), on top of
   * the connection's cap; applies when the client builds its hyper-http client here.
   */
  requestsPerNode?: number;
}

/**
 * A node's own pveproxy serves its `/nodes/{node}/…` requests with 3 workers by default: 2 leave
 * one for the node's web UI and other clients (docs/behaviour.md §3.7).
 */
export const DEFAULT_REQUESTS_PER_NODE = 2;

/** The node whose pveproxy serves a request path (`…/api2/json/nodes/{node}/…`), if one does. */
export function proxmoxNodeOf(path: string): string | undefined {
  const match = /\/api2\/json\/nodes\/([^/?]+)(?:[/?]|$)/.exec(path);
  return match ? decodeURIComponent(match[1] as string) : undefined;
}

/** Why the guest agent gave no interfaces. All are normal for an inventory: they only cost the IPs. */
export type AgentUnavailableReason =
  | "vm-not-running"
  | "agent-not-running"
  | "agent-not-configured"
  | "not-permitted"
  | "agent-error";

/** Result of reading a VM's interfaces through its guest agent. */
export type AgentInterfacesOutcome =
  | { kind: "ok"; interfaces: GuestInterface[] }
  | { kind: "unavailable"; reason: AgentUnavailableReason; message: string };

/**
 * What the guest agent says about the guest itself; null where it would not say (an old agent
 * without the command, a timeout): those values stay last-known (docs/behaviour.md §10.10).
 */
export interface AgentIdentity {
  hostName: string | null;
  osInfo: AgentOsInfo | null;
}

/** Result of reading a container's live interfaces (PVE 8.1+). */
export type LxcInterfacesOutcome =
  | { kind: "ok"; interfaces: GuestInterface[] }
  /** This Proxmox version has no such call (501/404): not an error. */
  | { kind: "not-offered" }
  | { kind: "unavailable"; message: string };

/** Typed, read-only Proxmox VE client. Every method rejects with a HyperError on failure. */
export interface ProxmoxClient {
  /** Requests in flight at once: per connection, and per node (docs/behaviour.md §3.7). */
  readonly limits: { perConnection: number; perNode: number };
  version(): Promise<ProxmoxVersion>;
  nodes(): Promise<ProxmoxNode[]>;
  clusterStatus(): Promise<ProxmoxClusterStatus>;
  /** Every guest of the cluster in one call, without details (docs/behaviour.md §8.7). */
  clusterGuests(): Promise<ProxmoxClusterGuest[]>;
  qemuList(node: string): Promise<ProxmoxGuestSummary[]>;
  lxcList(node: string): Promise<ProxmoxGuestSummary[]>;
  qemuConfig(node: string, vmid: number): Promise<QemuConfig>;
  lxcConfig(node: string, vmid: number): Promise<LxcConfig>;
  /** Agent errors (VM stopped, agent silent or absent, no permission) are results, not rejections. */
  qemuAgentInterfaces(node: string, vmid: number): Promise<AgentInterfacesOutcome>;
  /** Hostname and OS as the agent reports them; agent errors are nulls, not rejections. */
  qemuAgentIdentity(node: string, vmid: number): Promise<AgentIdentity>;
  lxcInterfaces(node: string, vmid: number): Promise<LxcInterfacesOutcome>;
  permissions(): Promise<ProxmoxPermissions>;
  /** Closes the hyper-http client if this client built it. */
  close(): Promise<void>;
}

const API = "/api2/json";

/** Creates a {@link ProxmoxClient} on hyper-http. */
export function createProxmoxClient(options: ProxmoxClientOptions): ProxmoxClient {
  const { http, ownsHttp } = connectorHttp(withNodeLimit(options), {
    source: "Proxmox",
    allowedWrites: PROXMOX_ALLOWED_WRITES,
  });
  const auth = options.auth;
  const tokenHeader =
    auth.kind === "token" ? tokenAuthorization(auth.tokenId, auth.secret) : undefined;
  const session =
    auth.kind === "password"
      ? createTicketSession({
          http,
          username: auth.username,
          password: auth.password,
          clock: options.clock ?? Date.now,
          renewAfterMs: options.ticketRenewAfterMs ?? TICKET_RENEW_AFTER_MS,
        })
      : undefined;

  async function get(path: string, retryServerErrors = true): Promise<unknown> {
    const send = async (headers: Record<string, string>) =>
      (
        await http.request({ method: "GET", path: `${API}${path}`, headers, retryServerErrors })
      ).json();
    if (!session) return send({ authorization: tokenHeader ?? "" });
    const ticket = await session.current();
    try {
      return await send(cookie(ticket));
    } catch (error) {
      // TRAP: docs/behaviour.md §3 — an expired ticket answers 401; log in again once, and a second 401 is a real "auth" failure.
      if (!isHyperError(error) || error.errorClass !== "auth") throw error;
      return send(cookie(await session.renewAfterRejection(ticket)));
    }
  }

  const guest = (node: string, type: "qemu" | "lxc", vmid: number) => {
    if (!Number.isInteger(vmid) || vmid < 0) throw new RangeError(`invalid vmid ${vmid}`);
    return `/nodes/${encodeURIComponent(node)}/${type}/${vmid}`;
  };

  return {
    // A ready client that limits no node is still read node by node fairly, as wide as it allows.
    limits: {
      perConnection: http.limits.perConnection,
      perNode: http.limits.perNode ?? http.limits.perConnection,
    },
    async version() {
      return parseVersion(await get("/version"));
    },
    async nodes() {
      return parseNodes(await get("/nodes"));
    },
    async clusterStatus() {
      return parseClusterStatus(await get("/cluster/status"));
    },
    async clusterGuests() {
      return parseClusterGuests(await get("/cluster/resources?type=vm"));
    },
    async qemuList(node) {
      return parseGuestList(await get(`/nodes/${encodeURIComponent(node)}/qemu`), "qemu", node);
    },
    async lxcList(node) {
      return parseGuestList(await get(`/nodes/${encodeURIComponent(node)}/lxc`), "lxc", node);
    },
    async qemuConfig(node, vmid) {
      const path = `${guest(node, "qemu", vmid)}/config`;
      return parseQemuConfig(await get(path), `GET ${path}`);
    },
    async lxcConfig(node, vmid) {
      const path = `${guest(node, "lxc", vmid)}/config`;
      return parseLxcConfig(await get(path), `GET ${path}`);
    },
    async qemuAgentInterfaces(node, vmid) {
      let result: AgentNetworkResult;
      try {
        // A 500 here is the agent's normal "not running" answer; retrying costs a 3 s guest ping each.
        const body = await get(`${guest(node, "qemu", vmid)}/agent/network-get-interfaces`, false);
        result = parseAgentNetwork(body);
      } catch (error) {
        const unavailable = isHyperError(error) ? agentUnavailable(error) : null;
        if (unavailable) return unavailable;
        throw error;
      }
      return result.kind === "interfaces"
        ? { kind: "ok", interfaces: result.interfaces }
        : { kind: "unavailable", reason: "agent-error", message: result.message };
    },
    async qemuAgentIdentity(node, vmid) {
      const read = async <T>(command: string, parse: (body: unknown) => T): Promise<T | null> => {
        try {
          return parse(await get(`${guest(node, "qemu", vmid)}/agent/${command}`, false));
        } catch (error) {
          // Any answer but a refused login costs only this value (kept last-known): the agent
          // just answered, so failing the guest's whole list over it would lose far more.
          if (isHyperError(error) && error.status !== undefined && error.status !== 401) {
            return null;
          }
          throw error;
        }
      };
      // One after the other: each is a round trip to the guest, and the agent serialises them anyway.
      const hostName = await read("get-host-name", parseAgentHostName);
      const osInfo = await read("get-osinfo", parseAgentOsInfo);
      return { hostName, osInfo };
    },
    async lxcInterfaces(node, vmid) {
      try {
        const body = await get(`${guest(node, "lxc", vmid)}/interfaces`, false);
        return { kind: "ok", interfaces: parseLxcInterfaces(body) };
      } catch (error) {
        if (!isHyperError(error)) throw error;
        if (error.errorClass === "not_found") return { kind: "not-offered" };
        if (error.status === 500) {
          return { kind: "unavailable", message: error.serverMessage ?? "no interfaces" };
        }
        throw error;
      }
    },
    async permissions() {
      return parsePermissions(await get("/access/permissions"));
    },
    async close() {
      if (ownsHttp) await http.close();
    },
  };
}

/** The hyper-http options with the per-node limit filled in; a ready client is left as it is. */
function withNodeLimit(options: ProxmoxClientOptions): ProxmoxClientOptions["http"] {
  const given = options.http;
  if ("request" in given) return given;
  const limit = options.requestsPerNode ?? DEFAULT_REQUESTS_PER_NODE;
  return {
    ...given,
    concurrency: { ...given.concurrency, perNode: { limit, nodeOf: proxmoxNodeOf } },
  };
}

function cookie(ticket: string): Record<string, string> {
  return { cookie: `PVEAuthCookie=${ticket}` };
}

/**
 * Maps an agent-call failure to a normal "no IPs" outcome, or null when it is a real failure
 * (unreachable, auth, 595 node down…) the caller must see.
 */
export function agentUnavailable(
  error: HyperError,
): Extract<AgentInterfacesOutcome, { kind: "unavailable" }> | null {
  const message = error.serverMessage ?? error.message;
  // PVE 7/8 check VM.Monitor for agent reads, which PVEAuditor lacks: a 403 here is expected.
  if (error.status === 403) return { kind: "unavailable", reason: "not-permitted", message };
  if (error.status !== 500) return null;
  if (/guest agent is not running/i.test(message)) {
    return { kind: "unavailable", reason: "agent-not-running", message };
  }
  if (/no qemu guest agent configured/i.test(message)) {
    return { kind: "unavailable", reason: "agent-not-configured", message };
  }
  if (/^VM \d+ is not running/i.test(message)) {
    return { kind: "unavailable", reason: "vm-not-running", message };
  }
  return { kind: "unavailable", reason: "agent-error", message };
}

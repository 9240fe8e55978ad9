import {
  type HttpsStandin,
  type HttpsStandinOptions,
  modelFrom,
  startHttpsStandin,
} from "../standin.ts";
import { ProxmoxAuth, type ProxmoxTokenSpec, type ProxmoxUserSpec } from "./auth.ts";
import { demoCluster } from "./demo-cluster.ts";
import { API_BASE, proxmoxHandler } from "./handler.ts";
import { type ClusterSpec, ProxmoxCluster } from "./model.ts";
import { PveReplies } from "./replies.ts";
import { type PveVersion, versionTraits } from "./versions.ts";

/** The token every stand-in accepts unless `tokens` says otherwise (PVEAuditor on `/`). */
export const DEFAULT_TOKEN: ProxmoxTokenSpec = {
  id: "hyperlens@pve!inventory",
  secret: "5f0c8e4e-8f5b-4c1e-9a57-2d3b1f6c7a90",
  role: "auditor",
};

/** The user every stand-in accepts for ticket logins unless `users` says otherwise. */
export const DEFAULT_USER: ProxmoxUserSpec = {
  username: "root@pam",
  password: "standin-password",
  role: "admin",
};

/** Two hours, pve-access-control's `$ticket_lifetime`. */
export const TICKET_LIFETIME_MS = 2 * 60 * 60 * 1000;

/** Options of {@link createProxmoxStandin}; every field is optional. */
export interface ProxmoxStandinOptions extends HttpsStandinOptions {
  /** The inventory to serve (a model, or a spec to build one); default {@link demoCluster}. */
  cluster?: ProxmoxCluster | ClusterSpec;
  /** Release to imitate; default "8.4". */
  version?: PveVersion;
  /** Accepted API tokens; default [{@link DEFAULT_TOKEN}]. */
  tokens?: ProxmoxTokenSpec[];
  /** Users for ticket login; default [{@link DEFAULT_USER}]. */
  users?: ProxmoxUserSpec[];
  /** Ticket lifetime; default two hours. */
  ticketTtlMs?: number;
  /** Delay before every 401 (real servers wait ~3 s); default 0. */
  authFailureDelayMs?: number;
  /** Override whether JSON error bodies carry `"message"` (default: by release). */
  errorMessageInBody?: boolean;
}

/** A running Proxmox VE stand-in. */
export interface ProxmoxStandin extends HttpsStandin {
  /** `url` + `/api2/json`. */
  apiUrl: string;
  version: PveVersion;
  /** The live model: change it between syncs. */
  cluster: ProxmoxCluster;
  /** Ready-made `Authorization` header value for the first configured token. */
  tokenHeader: string;
  /** Invalidate every ticket issued so far (as if two hours had passed). */
  expireAllTickets(): void;
}

/** Start a Proxmox VE stand-in over real HTTPS on 127.0.0.1. */
export async function createProxmoxStandin(
  options: ProxmoxStandinOptions = {},
): Promise<ProxmoxStandin> {
  const version = options.version ?? "8.4";
  const now = options.now ?? Date.now;
  const baseTraits = versionTraits(version);
  const traits =
    options.errorMessageInBody === undefined
      ? baseTraits
      : { ...baseTraits, errorMessageInBody: options.errorMessageInBody };
  const cluster = modelFrom(options.cluster, ProxmoxCluster, demoCluster);
  const tokens = options.tokens ?? [DEFAULT_TOKEN];
  const auth = new ProxmoxAuth({
    tokens,
    users: options.users ?? [DEFAULT_USER],
    ticketTtlMs: options.ticketTtlMs ?? TICKET_LIFETIME_MS,
    now,
  });
  const server = await startHttpsStandin(
    options,
    proxmoxHandler({
      cluster,
      traits,
      auth,
      replies: new PveReplies(traits, now),
      authFailureDelayMs: options.authFailureDelayMs ?? 0,
    }),
  );
  const firstToken = tokens[0];
  return {
    ...server,
    apiUrl: `${server.url}${API_BASE}`,
    version,
    cluster,
    tokenHeader: firstToken ? `PVEAPIToken=${firstToken.id}=${firstToken.secret}` : "",
    expireAllTickets: () => auth.expireAllTickets(),
  };
}

import {
  type HttpsStandin,
  type HttpsStandinOptions,
  modelFrom,
  type SessionCounts,
  startHttpsStandin,
  withSessionCounts,
} from "../standin.ts";
import { demoDirector } from "./demo-director.ts";
import { type VcdSettings, vcdHandler, type WriteAttempt } from "./handler.ts";
import { DirectorModel, type DirectorSpec } from "./model.ts";
import type { NamespaceStyle } from "./namespaces.ts";
import { type VcdSession, VcdSessions, type VcdUserSpec } from "./sessions.ts";
import { type ApiVersionRange, DEFAULT_API_VERSIONS } from "./versions.ts";

/** The password of the default users. */
export const DEFAULT_VCD_PASSWORD = "standin-password";

/** A tenant user of the demo org `acme` and a provider administrator of `System`. */
export const DEFAULT_VCD_USERS: VcdUserSpec[] = [
  { user: "inventory", org: "acme", password: DEFAULT_VCD_PASSWORD, role: "tenant" },
  { user: "administrator", org: "System", password: DEFAULT_VCD_PASSWORD, role: "provider" },
];

/** Options of {@link createVcdStandin}; every field is optional. */
export interface VcdStandinOptions extends HttpsStandinOptions {
  /** The inventory (a model, or a spec to build one); default {@link demoDirector}. */
  model?: DirectorModel | DirectorSpec;
  /** Accepted users; default {@link DEFAULT_VCD_USERS}. */
  users?: VcdUserSpec[];
  /** Accepted API versions; default 37.0–39.1 (Director 10.6). */
  apiVersions?: ApiVersionRange;
  /** Prefixes of XML answers; default "unusual" so prefix-matching clients fail in tests. */
  namespaces?: NamespaceStyle;
  /** Query service page cap; default 128 (Director's default `maxPageSize`). */
  maxPageSize?: number;
  /** CloudAPI edge gateway page cap; default 128. */
  edgeGatewayMaxPageSize?: number;
  /** Page cap of the other CloudAPI lists (registered vCenters); default 128. */
  cloudApiMaxPageSize?: number;
  /** Leave `pageCount` out of edge gateway pages; default false. */
  omitEdgeGatewayPageCount?: boolean;
  /** Leave the `Link` headers out of edge gateway pages; default false. */
  omitEdgeGatewayLinks?: boolean;
  /** Delay before a failed login's 401; default 0. */
  authFailureDelayMs?: number;
}

/** A running Cloud Director stand-in. */
export interface VcdStandin extends HttpsStandin, SessionCounts<VcdSession> {
  /** The live inventory: change it between syncs. */
  model: DirectorModel;
  /** Live switches (namespaces, page caps, versions…): change them between requests. */
  settings: VcdSettings;
  /** Refused writes (anything but GET, login and logout), in arrival order. */
  writeAttempts: WriteAttempt[];
  /** `Basic …` header value for a user (default: the first configured one). */
  basicAuth(user?: VcdUserSpec): string;
}

/** Start a Cloud Director stand-in over real HTTPS on 127.0.0.1. */
export async function createVcdStandin(options: VcdStandinOptions = {}): Promise<VcdStandin> {
  const now = options.now ?? Date.now;
  const model = modelFrom(options.model, DirectorModel, demoDirector);
  const users = options.users ?? DEFAULT_VCD_USERS;
  const sessions = new VcdSessions(users, model, now);
  const settings: VcdSettings = {
    namespaces: options.namespaces ?? "unusual",
    maxPageSize: options.maxPageSize ?? 128,
    edgeGatewayMaxPageSize: options.edgeGatewayMaxPageSize ?? 128,
    cloudApiMaxPageSize: options.cloudApiMaxPageSize ?? 128,
    omitEdgeGatewayPageCount: options.omitEdgeGatewayPageCount ?? false,
    omitEdgeGatewayLinks: options.omitEdgeGatewayLinks ?? false,
    apiVersions: options.apiVersions ?? DEFAULT_API_VERSIONS,
    authFailureDelayMs: options.authFailureDelayMs ?? 0,
  };
  const writeAttempts: WriteAttempt[] = [];
  const server = await startHttpsStandin(
    options,
    vcdHandler({ model, sessions, settings, writeAttempts, now }),
  );
  const standin = {
    ...server,
    model,
    settings,
    writeAttempts,
    basicAuth: (user = users[0]) =>
      user
        ? `Basic ${Buffer.from(`${user.user}@${user.org}:${user.password}`).toString("base64")}`
        : "",
  };
  return withSessionCounts(standin, sessions);
}

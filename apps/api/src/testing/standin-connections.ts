// A saved connection to a stand-in: the set-up every end-to-end sync test starts from.
import type { Connection } from "@hyperlens/db";
import type { ConnectionKind } from "@hyperlens/shared";
import {
  DEFAULT_TOKEN,
  DEFAULT_VCD_USERS,
  DEFAULT_VCENTER_USERS,
} from "@hyperlens/standins/testing";
import { afterAll, afterEach, beforeAll, beforeEach } from "vitest";
import type { AppServices } from "../context.ts";
import { type ConnectionInput, saveConnection } from "../services/connections.ts";
import { syncConnection } from "../syncs/coordinator.ts";
import { startTestApp, type TestApp } from "./test-app.ts";

type Login = Pick<ConnectionInput, "username" | "tokenId" | "secret">;

/** How a test signs in to each stand-in unless it says otherwise. */
const LOGINS: Record<ConnectionKind, () => Login> = {
  PROXMOX: () => {
    const [username, tokenId] = DEFAULT_TOKEN.id.split("!");
    return { username: username ?? "", tokenId, secret: DEFAULT_TOKEN.secret };
  },
  VCD: () => {
    const provider = DEFAULT_VCD_USERS.find((u) => u.role === "provider");
    if (!provider) throw new Error("the Director stand-in has no provider user");
    return { username: `${provider.user}@${provider.org}`, secret: provider.password };
  },
  VCENTER: () => {
    const user = DEFAULT_VCENTER_USERS[0];
    if (!user) throw new Error("the vCenter stand-in has no user");
    return { username: user.user, secret: user.password };
  },
};

/**
 * Saves (through the connection service, secret encrypted) a `kind` connection named `name` to
 * the stand-in at `standin`, signing in as the stand-in's default: Proxmox's API token, Director's
 * provider administrator, vCenter's first user. `more` sets further fields, e.g. the sync
 * interval, whether the connection is active, or another login.
 */
export function saveStandinConnection(
  services: Pick<AppServices, "prisma" | "secrets">,
  kind: ConnectionKind,
  standin: { url: string; caPem: string },
  name: string,
  more: Partial<ConnectionInput> = {},
): Promise<Connection> {
  return saveConnection(
    services.prisma,
    services.secrets,
    kind,
    { name, url: standin.url, caPem: standin.caPem, ...LOGINS[kind](), ...more },
    null,
    // Stand-ins listen on loopback, which the server refuses by default.
    { allowLoopbackTargets: true },
  );
}

type Closable = { url: string; caPem: string; close(): Promise<void> };

/** Options of {@link eachTestConnectedTo} and {@link eachFileConnectedTo}. */
export interface ConnectedToOptions {
  /** Starts the app; default {@link startTestApp} with the test configuration. */
  startApp?: () => Promise<TestApp>;
}

/** What {@link eachTestConnectedTo} and {@link eachFileConnectedTo} take. */
type ConnectedToArgs<S extends Closable> = [
  kind: ConnectionKind,
  name: string,
  start: () => Promise<S>,
  options?: ConnectedToOptions,
];

/**
 * For a file whose every test starts afresh: before each test, a new app, the stand-in `start`
 * makes and a connection named `name` to it ({@link saveStandinConnection}); after it, both
 * closed. Read the fields inside tests only: they are set by the time a test runs.
 */
export const eachTestConnectedTo = <S extends Closable>(...args: ConnectedToArgs<S>) =>
  connectedTo(beforeEach, afterEach, ...args);

/** {@link eachTestConnectedTo}, set up once for the whole file (before its first test). */
export const eachFileConnectedTo = <S extends Closable>(...args: ConnectedToArgs<S>) =>
  connectedTo(beforeAll, afterAll, ...args);

function connectedTo<S extends Closable>(
  before: typeof beforeAll,
  after: typeof afterAll,
  kind: ConnectionKind,
  name: string,
  start: () => Promise<S>,
  { startApp = () => startTestApp() }: ConnectedToOptions = {},
) {
  let current: { app: TestApp; standin: S; connectionId: string } | undefined;
  const now = () => {
    if (!current) throw new Error("the stand-in connection exists only while tests run");
    return current;
  };
  before(async () => {
    const app = await startApp();
    const standin = await start();
    current = { app, standin, connectionId: "" };
    current.connectionId = (await saveStandinConnection(app.services, kind, standin, name)).id;
  });
  after(async () => {
    await current?.standin.close();
    await current?.app.close();
    current = undefined;
  });
  return {
    get app() {
      return now().app;
    },
    get services() {
      return now().app.services;
    },
    get standin() {
      return now().standin;
    },
    get connectionId() {
      return now().connectionId;
    },
    /** A manual sync of the connection, to its end. */
    sync: () => syncConnection(now().app.services, now().connectionId, { trigger: "MANUAL" }).done,
    /** The connection's guests that are not removed. */
    stored: () =>
      now().app.services.prisma.virtualMachine.findMany({
        where: { connectionId: now().connectionId, removedAt: null },
      }),
  };
}

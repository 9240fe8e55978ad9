// A vCenter client bound to a fresh stand-in, with its warnings collected; closed after each test.
import type { HyperLogger } from "@hyperlens/hyper-http";
import {
  createVcenterStandin,
  DEFAULT_VCENTER_PASSWORD,
  DEFAULT_VCENTER_USERS,
  type VcenterStandin,
  type VcenterStandinOptions,
} from "@hyperlens/standins/testing";
import { afterEach } from "vitest";
import { createVcenterClient, type VcenterClient } from "../client.ts";

/** The stand-in's default user. */
export const USER = {
  username: DEFAULT_VCENTER_USERS[0]?.user ?? "hyperlens@vsphere.local",
  password: DEFAULT_VCENTER_PASSWORD,
};

/** A stand-in, a client on it, and what the client logged. */
export interface Setup {
  standin: VcenterStandin;
  client: VcenterClient;
  warnings: Record<string, unknown>[];
  lines: Record<string, unknown>[];
}

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** Starts a stand-in and a client with quick retries; both are closed after the test. */
export async function setup(
  options: VcenterStandinOptions = {},
  client: { vmListCap?: number; password?: string; baseUrl?: string } = {},
): Promise<Setup> {
  const standin = await createVcenterStandin(options);
  const warnings: Record<string, unknown>[] = [];
  const lines: Record<string, unknown>[] = [];
  const logger: HyperLogger = {
    info: (entry) => lines.push(entry),
    warn: (entry) => {
      warnings.push(entry);
      lines.push(entry);
    },
  };
  const vcenter = createVcenterClient({
    http: {
      connectionId: "vc-1",
      baseUrl: client.baseUrl ?? standin.url,
      caPem: standin.caPem,
      // The stand-in listens on loopback, which hyper-http refuses unless told otherwise.
      allowLoopbackTargets: true,
      retry: { attempts: 2, baseDelayMs: 1, maxDelayMs: 2 },
      timeouts: { connectMs: 2000 },
      logger,
    },
    credentials: { username: USER.username, password: client.password ?? USER.password },
    ...(client.vmListCap === undefined ? {} : { vmListCap: client.vmListCap }),
  });
  cleanups.push(() => standin.close());
  cleanups.push(() => vcenter.close());
  return { standin, client: vcenter, warnings, lines };
}

// Values only the guest reports do not flap (docs/behaviour.md §10.10): a hostname, OS and kernel read
// from the Proxmox stand-in's agent stay when the agent falls silent for a sync, with the time they
// were last reported and since when they were not, and are fresh again when it answers. Every
// missing value says why, as a code.
import { createProxmoxClient, readProxmoxInventory } from "@hyperlens/proxmox";
import { labCluster } from "@hyperlens/proxmox/testing";
import {
  createProxmoxStandin,
  DEFAULT_TOKEN,
  type ProxmoxStandin,
  type PveVersion,
} from "@hyperlens/standins/testing";
import { runSync } from "@hyperlens/sync";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { neutralVm, seedConnection } from "../testing/seed-inventory.ts";
import { startTestApp, type TestApp } from "../testing/test-app.ts";

type Reason = { code: string; privilege: string | null; message: string | null } | null;
type Value = {
  value: string | null;
  reportedAt: string | null;
  notReportedSince: string | null;
  missingReason: Reason;
};
type Guest = {
  name: string;
  guestAgentMissingReason: Reason;
  guestValues: { hostname: Value; osName: Value; osVersion: Value; kernel: Value };
};

const VALUE = "value reportedAt notReportedSince missingReason { code privilege message }";
const GUEST = `name guestAgentMissingReason { code privilege message }
  guestValues { hostname { ${VALUE} } osName { ${VALUE} } osVersion { ${VALUE} } kernel { ${VALUE} } }`;

let app: TestApp;
let viewer: string;
let standin: ProxmoxStandin | undefined;
let clockAt = Date.parse("2026-04-01T00:00:00Z");

beforeAll(async () => {
  app = await startTestApp();
  viewer = await app.signedInAs("viewer", { capabilities: ["VIEW_INVENTORY"] });
});
afterAll(async () => app?.close());
afterEach(async () => {
  await standin?.close();
  standin = undefined;
});

async function connectTo(version: PveVersion) {
  standin = await createProxmoxStandin({ cluster: labCluster(), version });
  const name = `pve-${clockAt}`;
  const { id } = await seedConnection(app.services, "PROXMOX", name, []);
  return { id, name };
}

/** One sync of the stand-in, a minute after the last; returns its time and rows written. */
async function sync(connectionId: string) {
  const target = standin;
  if (!target) throw new Error("no stand-in");
  clockAt += 60_000;
  const at = new Date(clockAt);
  const client = createProxmoxClient({
    http: {
      connectionId,
      baseUrl: target.url,
      caPem: target.caPem,
      allowLoopbackTargets: true,
      retry: { attempts: 1 },
    },
    auth: { kind: "token", tokenId: DEFAULT_TOKEN.id, secret: DEFAULT_TOKEN.secret },
  });
  try {
    const result = await runSync({
      prisma: app.services.prisma,
      connectionId,
      source: "PROXMOX",
      trigger: "MANUAL",
      read: () => readProxmoxInventory(client),
      now: () => at,
    });
    return { at: at.toISOString(), rowsWritten: result.counts.rowsWritten };
  } finally {
    await client.close();
  }
}

/** The guests of a connection as the list reads them, by name. */
async function guests(connectionName: string): Promise<Record<string, Guest>> {
  const connections = await app.graphql<{ connections: { id: string; name: string }[] }>(
    "{ connections { id name } }",
    {},
    { cookie: viewer },
  );
  const id = connections.body.data?.connections.find((c) => c.name === connectionName)?.id;
  const list = await app.graphql<{ virtualMachines: { edges: { node: Guest }[] } }>(
    `query($id: ID!) { virtualMachines(filter: { connectionId: [$id] }) { edges { node { ${GUEST} } } } }`,
    { id },
    { cookie: viewer },
  );
  expect(list.body.errors).toBeUndefined();
  return Object.fromEntries(
    (list.body.data?.virtualMachines.edges ?? []).map((e) => [e.node.name, e.node]),
  );
}

const live = (value: string, reportedAt: string): Value => ({
  value,
  reportedAt,
  notReportedSince: null,
  missingReason: null,
});

describe("guest-reported values over syncs", () => {
  it("keep their last value when the agent is silent for a sync, and are fresh when it is back", async () => {
    const connection = await connectTo("9.1");
    await sync(connection.id);
    const unchanged = await sync(connection.id);
    expect(unchanged.rowsWritten).toBe(0);
    let web = (await guests(connection.name)).web;
    expect(web?.guestAgentMissingReason).toBeNull();
    expect(web?.guestValues).toEqual({
      hostname: live("web", unchanged.at),
      osName: live("Debian GNU/Linux 12 (bookworm)", unchanged.at),
      osVersion: live("12 (bookworm)", unchanged.at),
      kernel: live("6.1.0-18-amd64", unchanged.at),
    });

    standin?.cluster.setAgent(100, { state: "silent" });
    const silent = await sync(connection.id);
    expect(silent.rowsWritten).toBeGreaterThan(0);
    const stillSilent = await sync(connection.id);
    // TRAP: docs/behaviour.md §3 — the unchanged re-sync writes nothing, silent agent or not.
    expect(stillSilent.rowsWritten).toBe(0);
    web = (await guests(connection.name)).web;
    const agentNotRunning = { code: "AGENT_NOT_RUNNING", privilege: null, message: null };
    expect(web?.guestAgentMissingReason).toEqual(agentNotRunning);
    expect(web?.guestValues.hostname).toEqual({
      value: "web",
      reportedAt: unchanged.at,
      notReportedSince: silent.at,
      missingReason: agentNotRunning,
    });
    expect(web?.guestValues.kernel.value).toBe("6.1.0-18-amd64");

    // Back, with a new hostname: the fresh value replaces the kept one.
    standin?.cluster.setAgent(100, {
      state: "answers",
      interfaces: [],
      identity: { hostName: "web-renamed" },
    });
    const back = await sync(connection.id);
    web = (await guests(connection.name)).web;
    expect(web?.guestAgentMissingReason).toBeNull();
    expect(web?.guestValues.hostname).toEqual(live("web-renamed", back.at));
    expect(web?.guestValues.osName).toEqual(live("Debian GNU/Linux 12 (bookworm)", back.at));
  });

  it("say why each value is missing: VM not running, container stopped, not offered, list failed", async () => {
    const connection = await connectTo("9.1");
    standin?.cluster.setStatus(200, "stopped");
    await sync(connection.id);
    const all = await guests(connection.name);
    const notRunning = { code: "VM_NOT_RUNNING", privilege: null, message: null };
    expect(all.db?.guestAgentMissingReason).toEqual(notRunning);
    expect(all.db?.guestValues.hostname).toEqual({
      value: null,
      reportedAt: null,
      notReportedSince: null,
      missingReason: notRunning,
    });
    const ct = all["static-ct"];
    expect(ct?.guestAgentMissingReason).toEqual({
      code: "CONTAINER_STOPPED",
      privilege: null,
      message: null,
    });
    // A container's hostname is its config's; its OS version and kernel no source reports.
    expect(ct?.guestValues.hostname.value).toBe("static-ct");
    expect(ct?.guestValues.hostname.missingReason).toBeNull();
    expect(ct?.guestValues.kernel.missingReason).toEqual({
      code: "NOT_OFFERED_BY_SOURCE",
      privilege: null,
      message: null,
    });

    standin?.faults.fail("/nodes/pve1/qemu", 500, { times: 100 });
    await sync(connection.id);
    const web = (await guests(connection.name)).web;
    const listFailed = { code: "LIST_FAILED", privilege: null, message: null };
    expect(web?.guestAgentMissingReason).toEqual(listFailed);
    expect(web?.guestValues.hostname).toMatchObject({ value: "web", missingReason: listFailed });
  });

  it("say PERMISSION_MISSING with the privilege the version checks", async () => {
    const connection = await connectTo("8.4");
    await sync(connection.id);
    const web = (await guests(connection.name)).web;
    expect(web?.guestAgentMissingReason).toMatchObject({
      code: "PERMISSION_MISSING",
      privilege: "VM.Monitor",
    });
    expect(web?.guestValues.osName.missingReason).toMatchObject({
      code: "PERMISSION_MISSING",
      privilege: "VM.Monitor",
    });
  });

  it("say NOT_OFFERED_BY_SOURCE for every value of a Director VM", async () => {
    const name = `vcd-${clockAt}`;
    await seedConnection(app.services, "VCD", name, [
      neutralVm("urn:vcloud:vm:1", {
        name: "director-vm",
        guestReport: { code: "NOT_OFFERED_BY_SOURCE" },
      }),
    ]);
    const vm = (await guests(name))["director-vm"];
    const notOffered = { code: "NOT_OFFERED_BY_SOURCE", privilege: null, message: null };
    expect(vm?.guestAgentMissingReason).toEqual(notOffered);
    for (const value of Object.values(vm?.guestValues ?? {})) {
      expect(value.missingReason).toEqual(notOffered);
    }
  });
});

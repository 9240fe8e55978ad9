// docs/behaviour.md §11.4: the server's words for people come with a code and parameters beside
// the English message, over GraphQL, on the demo Proxmox stand-in (pve4 offline, web-01's docker0).
import { createProxmoxStandin, demoCluster, qemuGuest } from "@hyperlens/standins/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { trySyncConnection } from "../syncs/coordinator.ts";
import { eachFileConnectedTo } from "../testing/standin-connections.ts";

const pve = eachFileConnectedTo("PROXMOX", "pve", () =>
  createProxmoxStandin({ cluster: demoCluster(), version: "9.1" }),
);

let admin: string;
const connectionGid = () => Buffer.from(`Connection:${pve.connectionId}`).toString("base64");

async function gql<T>(query: string, variables: Record<string, unknown> = {}) {
  const res = await pve.app.graphql<T>(query, variables, { cookie: admin });
  if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
  return res.body.data as T;
}

type Localized = { code: string; params: Record<string, unknown>; message: string };

beforeAll(async () => {
  admin = await pve.app.signedInAs("admin", { isAdmin: true });
  expect((await pve.sync()).outcome).toBe("PARTIAL");
});

describe("server text with codes (docs/behaviour.md §11.4)", () => {
  it("a sync run's message comes sentence by sentence as codes, the offline node's reason nested", async () => {
    const data = await gql<{
      syncRuns: { edges: { node: { message: string; messageTexts: Localized[] } }[] };
    }>(
      `query { syncRuns(first: 1) { edges { node { message messageTexts { code params message } } } } }`,
    );
    const run = data.syncRuns.edges[0]?.node;
    expect(run?.messageTexts.map((text) => text.message).join(" ")).toBe(run?.message);
    expect(run?.messageTexts[0]).toMatchObject({
      code: "syncSummary",
      params: { dryRun: "false" },
    });
    expect(run?.messageTexts).toContainEqual({
      code: "syncListSkipped",
      params: {
        list: "pve4/qemu",
        status: "node_offline",
        reason: {
          code: "nodeNotOnline",
          params: { node: "pve4", status: "offline" },
          message: "node pve4 is offline",
        },
      },
      message: "Skipped pve4/qemu (node offline: node pve4 is offline).",
    });
  });

  it("the connection's last sync message comes as the same codes", async () => {
    const data = await gql<{
      node: { lastSyncMessage: string; lastSyncMessageTexts: Localized[] };
    }>(
      `query($id: ID!) { node(id: $id) { ... on Connection {
        lastSyncMessage lastSyncMessageTexts { code params message } } } }`,
      { id: connectionGid() },
    );
    expect(data.node.lastSyncMessageTexts.map((text) => text.message).join(" ")).toBe(
      data.node.lastSyncMessage,
    );
  });

  it("a rejected address says why with a code beside its English reason", async () => {
    const data = await gql<{
      virtualMachines: {
        edges: {
          node: {
            ipAddresses: {
              address: string;
              rejectReason: string | null;
              rejectReasonText: Localized | null;
            }[];
          };
        }[];
      };
    }>(`query { virtualMachines(first: 1, filter: { search: "web-01" }) { edges { node {
      ipAddresses(includeRejected: true) { address rejectReason rejectReasonText { code params message } }
    } } } }`);
    const ips = data.virtualMachines.edges[0]?.node.ipAddresses ?? [];
    const docker = ips.find((ip) => ip.address === "172.17.0.1");
    expect(docker?.rejectReasonText).toEqual({
      code: "addressIgnoredInterface",
      params: { label: "docker0", pattern: "docker*" },
      message: docker?.rejectReason,
    });
    const accepted = ips.find((ip) => ip.address === "10.10.0.11");
    expect(accepted?.rejectReasonText).toBeNull();
  });

  /** Tests the connection with the stand-in's faults as set, then clears them. */
  async function testConnectionNow() {
    const data = await gql<{
      testConnection: { ok: boolean; message: string; messageText: Localized | null };
    }>(
      `mutation($id: ID!) { testConnection(id: $id) { ok message messageText { code params message } } }`,
      { id: connectionGid() },
    );
    pve.standin.faults.clear();
    return data;
  }

  it("Test answers with a code beside its English message", async () => {
    const data = await testConnectionNow();
    expect(data.testConnection.ok).toBe(true);
    const messageText = data.testConnection.messageText as Localized;
    expect(messageText.message).toBe(data.testConnection.message);
    const summary =
      messageText.code === "connectionTestWarning" ? messageText.params.summary : messageText;
    expect(summary).toMatchObject({
      code: "connectionTestProxmox",
      params: { nodes: 4, online: 3 },
      message: expect.stringMatching(/^Connected: Proxmox VE 9\.1.*4 nodes, 3 online\.$/),
    });
  });

  it("a failed Test's frame has a code; the hypervisor's own words stay verbatim inside it", async () => {
    pve.standin.faults.fail("/nodes", 500, { reason: "Internal Server Error", times: 10 });
    const data = await testConnectionNow();
    expect(data.testConnection.ok).toBe(false);
    expect(data.testConnection.messageText).toEqual({
      code: "hyperServerFailing",
      params: expect.objectContaining({
        source: "Proxmox",
        http: "HTTP 500",
      }),
      message: data.testConnection.message,
    });
  });

  it("a proxy's login page instead of the answer is a coded failure in a Test, its size inside", async () => {
    pve.standin.faults.fail("/nodes", 200, {
      headers: { "Content-Type": "text/html" },
      body: "<html><body>Sign in</body></html>",
      times: 10,
    });
    const data = await testConnectionNow();
    expect(data.testConnection.ok).toBe(false);
    expect(data.testConnection.messageText).toEqual({
      code: "hyperAnswerHtml",
      params: expect.objectContaining({ source: "Proxmox", http: "HTTP 200", length: 33 }),
      message: data.testConnection.message,
    });
  });

  it("a failed sync's run and the connection's last sync carry the same frame", async () => {
    pve.standin.faults.fail("/cluster/resources", 500, {
      reason: "Internal Server Error",
      times: 10,
    });
    pve.standin.faults.fail("/nodes", 500, { reason: "Internal Server Error", times: 10 });
    const result = await pve.sync();
    pve.standin.faults.clear();
    expect(result.outcome).toBe("FAILED");
    const data = await gql<{
      syncRuns: { edges: { node: { message: string; messageTexts: Localized[] | null } }[] };
      node: { lastSyncMessageTexts: Localized[] | null };
    }>(
      `query($id: ID!) {
        syncRuns(first: 1) { edges { node { message messageTexts { code params message } } } }
        node(id: $id) { ... on Connection { lastSyncMessageTexts { code params message } } } }`,
      { id: connectionGid() },
    );
    const run = data.syncRuns.edges[0]?.node;
    expect(run?.messageTexts).toEqual([
      {
        code: "hyperServerFailing",
        params: expect.objectContaining({ http: "HTTP 500" }),
        message: run?.message,
      },
    ]);
    expect(data.node.lastSyncMessageTexts).toEqual(run?.messageTexts);
    expect((await pve.sync()).outcome).toBe("PARTIAL");
  });

  // Last: it adds a guest to the stand-in.
  it("a light poll's run message comes as codes too", async () => {
    pve.standin.cluster.addGuest(
      qemuGuest({ vmid: 990, name: "polled", node: "pve1", nics: [{ mac: "BC:24:11:99:00:01" }] }),
    );
    const attempt = await trySyncConnection(pve.services, pve.connectionId, {
      trigger: "SCHEDULE",
      lightPoll: true,
    });
    if (attempt.kind !== "started") throw new Error(`the poll did not start: ${attempt.kind}`);
    expect((await attempt.sync.done).counts).toMatchObject({ added: 1 });
    const data = await gql<{
      syncRuns: {
        edges: { node: { trigger: string; message: string; messageTexts: Localized[] } }[];
      };
    }>(
      `query { syncRuns(first: 1) { edges { node { trigger message messageTexts { code params message } } } } }`,
    );
    const run = data.syncRuns.edges[0]?.node;
    expect(run?.trigger).toBe("POLL");
    expect(run?.messageTexts).toEqual([
      {
        code: "lightPollSummary",
        params: expect.objectContaining({ read: 1, added: 1, changed: 0, removed: 0 }),
        message: run?.message,
      },
    ]);
    expect(run?.message).toMatch(/^Light poll: \d+ guests listed, 1 read: 1 added, 0 changed/);
  });
});

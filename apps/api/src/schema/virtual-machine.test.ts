import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { neutralVm, seedConnection, syncInto } from "../testing/seed-inventory.ts";
import { startTestApp, type TestApp } from "../testing/test-app.ts";
import { findVmPage } from "./virtual-machine-page.ts";

const GiB = 1024 ** 3;
let app: TestApp;
let viewer: string;
const queries: string[] = [];

type Page = {
  virtualMachines: {
    totalCount: number;
    pageInfo: {
      hasNextPage: boolean;
      hasPreviousPage: boolean;
      endCursor: string;
      startCursor: string;
    };
    edges: {
      cursor: string;
      node: { id: string; name: string; source: string } & Record<string, unknown>;
    }[];
  };
};

const LIST = `query($filter: VirtualMachineFilter, $orderBy: [VirtualMachineOrder!], $first: Int, $after: String, $last: Int, $before: String) {
  virtualMachines(filter: $filter, orderBy: $orderBy, first: $first, after: $after, last: $last, before: $before) {
    totalCount
    pageInfo { hasNextPage hasPreviousPage endCursor startCursor }
    edges { cursor node { id name source state cpuCount memoryBytes removedAt } }
  }
}`;

// A request's own statements: not the transaction brackets, nor the session's once-a-minute
// lastSeenAt touch, which falls on whichever request comes a minute after the last.
const countable = (q: string) =>
  !/^(BEGIN|COMMIT)/i.test(q) && !/^UPDATE "public"\."sessions"/.test(q);

async function list(variables: Record<string, unknown>) {
  const res = await app.graphql<Page>(LIST, variables, { cookie: viewer });
  if (res.body.errors)
    throw new Error(JSON.stringify(res.body.errors) + app.logLines.slice(-2).join("\n"));
  return res.body.data?.virtualMachines ?? { totalCount: -1, edges: [], pageInfo: {} as never };
}
const names = async (variables: Record<string, unknown>) =>
  (await list(variables)).edges.map((e) => e.node.name);

beforeAll(async () => {
  // Statements are counted per request: the background passes (webhook poll, abandoned-run sweep)
  // are put an hour apart so none lands inside a counted request.
  const quiet = { feedPollMs: 3_600_000, syncLeaseMs: 3_600_000 };
  app = await startTestApp(quiet, { onQuery: (sql) => queries.push(sql) });
  viewer = await app.signedInAs("viewer", { capabilities: ["VIEW_INVENTORY"] });
  await seedConnection(app.services, "PROXMOX", "pve", [
    neutralVm("100", {
      name: "web-01",
      cpuCount: 4,
      memoryBytes: 8 * GiB,
      tags: ["prod", "web"],
      guestOs: "Linux",
      location: { nodeName: "pve1", clusterName: "lab" },
      ips: [
        { address: "10.0.0.10", origin: "AGENT", nicKey: "net0", isAccepted: true },
        {
          address: "172.17.0.1",
          origin: "AGENT",
          interfaceName: "docker0",
          isAccepted: false,
          rejectReason: "docker0: interface name matches the ignored pattern docker*",
        },
      ],
    }),
    neutralVm("101", {
      name: "db-01",
      cpuCount: 8,
      memoryBytes: 32 * GiB,
      state: "STOPPED",
      tags: ["prod"],
      location: { nodeName: "pve2", clusterName: "lab" },
      ips: [{ address: "2001:DB8::DB", origin: "AGENT", nicKey: "net0", isAccepted: true }],
    }),
    neutralVm("200", {
      name: "ct-cache",
      kind: "CONTAINER",
      cpuCount: 1,
      memoryBytes: GiB,
      location: { nodeName: "pve1", clusterName: "lab" },
    }),
  ]);
  await seedConnection(app.services, "VCD", "vcd", [
    neutralVm("urn:vcloud:vm:1", {
      name: "Web-02",
      cpuCount: 2,
      memoryBytes: 4 * GiB,
      location: { orgName: "acme", vdcName: "acme-vdc1", vappName: "shop" },
      guestOs: "Windows Server 2022",
    }),
    neutralVm("urn:vcloud:vm:2", {
      name: "app-01",
      cpuCount: 2,
      location: { orgName: "globex", vdcName: "globex-vdc" },
      state: "SUSPENDED",
    }),
  ]);
});
afterAll(async () => app?.close());

describe("virtualMachines", () => {
  it("lists every VM and container from every source, sorted by name, with a total", async () => {
    const page = await list({});
    expect(page.totalCount).toBe(5);
    expect(page.edges.map((e) => e.node.name)).toEqual([
      "app-01",
      "ct-cache",
      "db-01",
      "web-01",
      "Web-02",
    ]);
  });

  it.each([
    [{ source: ["VCD"] }, ["app-01", "Web-02"]],
    [{ state: ["STOPPED", "SUSPENDED"] }, ["app-01", "db-01"]],
    [{ kind: ["CONTAINER"] }, ["ct-cache"]],
    [{ nodeName: "PVE1" }, ["ct-cache", "web-01"]],
    [{ clusterName: "lab" }, ["ct-cache", "db-01", "web-01"]],
    [{ orgName: "acme" }, ["Web-02"]],
    [{ vdcName: "globex-vdc" }, ["app-01"]],
    [{ search: "WEB" }, ["web-01", "Web-02"]],
    [{ search: "10.0.0" }, ["web-01"]],
    [{ search: "172.17" }, []],
    [{ search: "2001:db8::db" }, ["db-01"]],
    [{ search: "DB8::D" }, ["db-01"]],
    [{ tags: ["web"] }, ["web-01"]],
    [{ guestOs: "windows" }, ["Web-02"]],
  ])("filters by %j", async (filter, expected) => {
    expect(await names({ filter })).toEqual(expected);
  });

  it("filters by connection", async () => {
    const connections = await app.graphql<{ connections: { id: string; name: string }[] }>(
      "{ connections { id name } }",
      {},
      { cookie: viewer },
    );
    const pve = connections.body.data?.connections.find((c) => c.name === "pve");
    expect(await names({ filter: { connectionId: [pve?.id] } })).toEqual([
      "ct-cache",
      "db-01",
      "web-01",
    ]);
  });

  it.each([
    [[{ field: "MEMORY", direction: "DESC" }], ["db-01", "web-01", "Web-02", "ct-cache", "app-01"]],
    [
      [{ field: "CPU", direction: "ASC" }, { field: "NAME" }],
      ["ct-cache", "app-01", "Web-02", "web-01", "db-01"],
    ],
    [
      [{ field: "SOURCE" }, { field: "NAME", direction: "DESC" }],
      ["web-01", "db-01", "ct-cache", "Web-02", "app-01"],
    ],
    [
      [{ field: "STATE" }, { field: "NAME" }],
      ["ct-cache", "web-01", "Web-02", "db-01", "app-01"],
    ],
  ])("sorts by %j", async (orderBy, expected) => {
    expect(await names({ orderBy })).toEqual(expected);
  });

  it("sorts by last seen", async () => {
    expect(await names({ orderBy: [{ field: "LAST_SEEN", direction: "DESC" }] })).toHaveLength(5);
  });

  it("pages forward and back without duplicates or gaps while rows are added", async () => {
    const seen: string[] = [];
    let after: string | undefined;
    for (let i = 0; i < 3; i++) {
      const page = await list({ first: 2, after });
      seen.push(...page.edges.map((e) => e.node.name));
      after = page.pageInfo.endCursor;
      // A new guest sorting before the cursor must not shift later pages.
      if (i === 0)
        await seedConnection(app.services, "VCENTER", "extra", [
          neutralVm("vm-1", { name: "aaa-new" }),
        ]);
      if (!page.pageInfo.hasNextPage) break;
    }
    expect(seen).toEqual(["app-01", "ct-cache", "db-01", "web-01", "Web-02"]);
    const all = await list({ first: 10 });
    const back = await list({ last: 2, before: all.edges[4]?.cursor });
    expect(back.edges.map((e) => e.node.name)).toEqual(
      all.edges.slice(2, 4).map((e) => e.node.name),
    );
    expect(back.pageInfo.hasPreviousPage).toBe(true);
  });

  it("looks a VM up by its global id, with its source's own fields and explained IPs", async () => {
    const page = await list({ filter: { search: "web-01" } });
    const id = page.edges[0]?.node.id;
    const res = await app.graphql<{ node: Record<string, unknown> }>(
      `query($id: ID!) { node(id: $id) { __typename ... on ProxmoxGuest { vmid guestType nodeName
        ipAddresses(includeRejected: true) { address isAccepted rejectReason rejectRule }
        location { nodeName clusterName } confirmation history { type } } } }`,
      { id },
      { cookie: viewer },
    );
    expect(res.body.data?.node).toMatchObject({
      __typename: "ProxmoxGuest",
      vmid: 100,
      guestType: "qemu",
      location: { nodeName: "pve1", clusterName: "lab" },
      confirmation: "CONFIRMED",
      ipAddresses: [
        { address: "10.0.0.10", isAccepted: true, rejectReason: null, rejectRule: null },
        {
          address: "172.17.0.1",
          isAccepted: false,
          rejectRule: "IGNORED_INTERFACE",
          rejectReason: "docker0: interface name matches the ignored pattern docker*",
        },
      ],
    });
    expect(res.body.data?.node.history).toEqual(expect.arrayContaining([{ type: "APPEARED" }]));
  });

  it("returns tombstones with includeRemoved and with changedSince", async () => {
    const before = new Date(Date.now() - 1000).toISOString();
    const vcd = await app.services.prisma.connection.findFirstOrThrow({ where: { name: "vcd" } });
    await syncInto(app.services, vcd.id, "VCD", [
      neutralVm("urn:vcloud:vm:1", {
        name: "Web-02",
        location: { orgName: "acme", vdcName: "acme-vdc1", vappName: "shop" },
      }),
    ]);
    expect(await names({ filter: { source: ["VCD"] } })).toEqual(["Web-02"]);
    const tombstones = await list({ filter: { source: ["VCD"], includeRemoved: true } });
    expect(tombstones.edges.find((e) => e.node.name === "app-01")?.node.removedAt).not.toBeNull();
    expect(await names({ filter: { changedSince: before } })).toContain("app-01");
  });

  it("refuses a filter value that is too long, naming the field", async () => {
    const res = await app.graphql(
      LIST,
      { filter: { search: "x".repeat(201) } },
      { cookie: viewer },
    );
    expect(res.body.errors?.[0], app.logLines.slice(-1)[0]).toMatchObject({
      extensions: { code: "BAD_USER_INPUT", field: "filter.search" },
    });
  });

  it("runs the same number of SQL queries for a page of 2 as for a page of 100 (no N+1)", async () => {
    const DEEP = `query($first: Int) { virtualMachines(first: $first) { edges { node { name connection { name }
      nics { mac } ipAddresses { address } disks { capacityBytes } lastSeenAt } } } }`;
    const count = async (first: number) => {
      queries.length = 0;
      const res = await app.graphql(DEEP, { first }, { cookie: viewer });
      expect(res.body.errors).toBeUndefined();
      return queries.filter(countable).length;
    };
    const small = await count(2);
    const large = await count(100);
    expect(large).toBe(small);
    // Auth (session, user, and the required-two-factor switch for a password account without it),
    // the inventory's version, the page's ids, and its rows with every relation in one statement.
    expect(large).toBe(6);
  });

  it("reads guest-reported values and their reasons for a page in a fixed number of queries", async () => {
    // docs/behaviour.md §10.10: one query for the values of the whole page, not one per guest.
    const GUEST = `query($first: Int) { virtualMachines(first: $first) { edges { node { name lastSeenAt
      guestAgentMissingReason { code } guestValues { hostname { value reportedAt missingReason { code } } } } } } }`;
    const count = async (first: number) => {
      queries.length = 0;
      const res = await app.graphql(GUEST, { first }, { cookie: viewer });
      expect(res.body.errors).toBeUndefined();
      return queries.filter(countable).length;
    };
    expect(await count(100)).toBe(await count(2));
  });

  it("loads the Servers page's first page with its total in a fixed number of queries, counting once", async () => {
    // The web app's page query (apps/web/src/servers/use-vm-pages.ts); the total in a fragment too.
    const PAGE = `query($first: Int!, $filter: VirtualMachineFilter) { virtualMachines(first: $first, filter: $filter,
      orderBy: [{ field: NAME, direction: ASC }]) { totalCount ...total pageInfo { hasNextPage endCursor }
      edges { node { id name source kind state cpuCount memoryBytes diskTotalBytes lastSeenAt confirmation
        location { nodeName clusterName datacenterName hostName orgName vdcName vappName }
        ipAddresses { address } connection { id name } } } } }
      fragment total on VirtualMachineConnection { totalCount }`;
    const statements = async (first: number, filter: Record<string, unknown>) => {
      queries.length = 0;
      const res = await app.graphql<Page>(PAGE, { first, filter }, { cookie: viewer });
      expect(res.body.errors).toBeUndefined();
      return queries.filter(countable);
    };
    const isCount = (q: string) => /SELECT COUNT\(\*\).*"virtual_machines"/is.test(q);
    // The page's ids come first (from the index alone for a search), then the rows.
    const readsIdsOnly = (q: string) => /^SELECT "public"\."virtual_machines"\."id" FROM /.test(q);
    for (const filter of [{}, { search: "web" }]) {
      const first = await statements(7, filter);
      // The same filter again, with nothing written in between: its total is not counted again
      // (docs/behaviour.md §11.2) nor, for the same page, its ids read again (§11.5).
      const again = await statements(99, filter);
      const same = await statements(99, filter);
      // Auth (session, user, the required-two-factor switch), the inventory's version, the total,
      // the page's ids, and its rows with their addresses and connections in one statement.
      expect(first.length).toBe(7);
      expect(first.filter(isCount)).toHaveLength(1);
      expect(again.length).toBe(6);
      expect(again.filter(isCount)).toHaveLength(0);
      expect(again.filter(readsIdsOnly)).toHaveLength(1);
      expect(same.length).toBe(5);
      expect(same.filter(readsIdsOnly)).toHaveLength(0);
    }
    const withoutTotal = `{ virtualMachines(first: 5) { edges { node { name } } } }`;
    queries.length = 0;
    await app.graphql(withoutTotal, {}, { cookie: viewer });
    expect(queries.filter(isCount)).toHaveLength(0);
  });
});

describe("a page whose selection the one-statement reader declines", () => {
  // Counts of relations are not translated; Prisma reads such a page, in page order.
  const query = { select: { id: true, name: true, _count: { select: { ips: true } } }, take: 3 };
  const order = [{ nameSort: "asc" as const }, { id: "asc" as const }];

  it.each([true, false])("is read by Prisma (ids first: %s)", async (idsFirst) => {
    const rows = await findVmPage(app.services.prisma, query, { removedAt: null }, order, idsFirst);
    const expected = await app.services.prisma.virtualMachine.findMany({
      ...query,
      where: { removedAt: null },
      orderBy: order,
    });
    expect(rows).toEqual(expected);
    expect(rows).toHaveLength(3);
    expect(expected.some((row) => row._count.ips > 0)).toBe(true);
  });
});

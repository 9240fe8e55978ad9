// docs/behaviour.md §9.44: every column of the list sorts on the server; equal values fall back to
// the name, then the row id, so paging by cursor across equal values neither repeats nor skips.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { neutralVm, seedConnection } from "../testing/seed-inventory.ts";
import { startTestApp, type TestApp } from "../testing/test-app.ts";

const GiB = 1024 ** 3;
const PAGE = `query($orderBy: [VirtualMachineOrder!], $first: Int!, $after: String) {
  virtualMachines(orderBy: $orderBy, first: $first, after: $after) {
    edges { node { id name } }
    pageInfo { hasNextPage endCursor }
  }
}`;

let app: TestApp;
let viewer: string;

const withAddress = (address: string) => ({
  ips: [{ address, origin: "STATIC_CONFIG" as const, nicKey: "net0", isAccepted: true }],
});

beforeAll(async () => {
  app = await startTestApp();
  viewer = await app.signedInAs("viewer", { capabilities: ["VIEW_INVENTORY"] });
  // b-web and a-web are equal in every sorted column: only the name tells them apart.
  const web = {
    diskTotalBytes: 10 * GiB,
    location: { nodeName: "pve1" },
    ...withAddress("10.0.0.2"),
  };
  await seedConnection(app.services, "PROXMOX", "alpha-conn", [
    neutralVm("102", { name: "b-web", ...web }),
    neutralVm("101", { name: "a-web", ...web }),
    neutralVm("103", {
      name: "c-ct",
      kind: "CONTAINER",
      disks: [],
      diskTotalBytes: undefined,
      location: { nodeName: "pve2" },
    }),
  ]);
  // Two guests named alike and equal everywhere: only their row ids order them.
  const dup = { name: "dup", diskTotalBytes: 5 * GiB, location: { datacenterName: "DC1" } };
  await seedConnection(app.services, "VCENTER", "beta-conn", [
    neutralVm("vm-1", {
      name: "d-db",
      diskTotalBytes: 20 * GiB,
      location: { datacenterName: "DC1" },
      ...withAddress("10.0.0.1"),
    }),
    neutralVm("vm-2", dup),
    neutralVm("vm-3", dup),
  ]);
});
afterAll(async () => app?.close());

type Node = { id: string; name: string };
type Order = { field: string; direction: "ASC" | "DESC" };

async function page(orderBy: Order, first: number, after: string | null) {
  const res = await app.graphql<{
    virtualMachines: {
      edges: { node: Node }[];
      pageInfo: { hasNextPage: boolean; endCursor: string | null };
    };
  }>(PAGE, { orderBy: [orderBy], first, after }, { cookie: viewer });
  if (!res.body.data) throw new Error(JSON.stringify(res.body));
  return res.body.data.virtualMachines;
}

async function allAtOnce(orderBy: Order): Promise<Node[]> {
  return (await page(orderBy, 100, null)).edges.map((edge) => edge.node);
}

async function pageByPage(orderBy: Order, size: number): Promise<Node[]> {
  const nodes: Node[] = [];
  let after: string | null = null;
  for (;;) {
    const next = await page(orderBy, size, after);
    nodes.push(...next.edges.map((edge) => edge.node));
    if (!next.pageInfo.hasNextPage) return nodes;
    after = next.pageInfo.endCursor;
  }
}

const EXPECTED: Record<string, Record<"ASC" | "DESC", string[]>> = {
  KIND: {
    ASC: ["a-web", "b-web", "d-db", "dup", "dup", "c-ct"],
    DESC: ["c-ct", "a-web", "b-web", "d-db", "dup", "dup"],
  },
  DISK: {
    ASC: ["dup", "dup", "a-web", "b-web", "d-db", "c-ct"],
    DESC: ["d-db", "a-web", "b-web", "dup", "dup", "c-ct"],
  },
  ADDRESS: {
    ASC: ["d-db", "a-web", "b-web", "c-ct", "dup", "dup"],
    DESC: ["a-web", "b-web", "d-db", "c-ct", "dup", "dup"],
  },
  CONNECTION: {
    ASC: ["a-web", "b-web", "c-ct", "d-db", "dup", "dup"],
    DESC: ["d-db", "dup", "dup", "a-web", "b-web", "c-ct"],
  },
  // Missing parts last either way: the vCenter guests (datacenter) before the Proxmox ones (node).
  LOCATION: {
    ASC: ["d-db", "dup", "dup", "a-web", "b-web", "c-ct"],
    DESC: ["d-db", "dup", "dup", "c-ct", "a-web", "b-web"],
  },
};

describe("each column's sort, with the name and then the id breaking ties", () => {
  for (const [field, directions] of Object.entries(EXPECTED)) {
    for (const direction of ["ASC", "DESC"] as const) {
      it(`${field} ${direction}`, async () => {
        const nodes = await allAtOnce({ field, direction });
        expect(nodes.map((node) => node.name)).toEqual(directions[direction]);
        const dups = nodes.filter((node) => node.name === "dup").map((node) => node.id);
        expect(dups).toEqual([...dups].sort());
      });
    }
  }
});

describe("paging by cursor across equal values", () => {
  for (const field of [...Object.keys(EXPECTED), "NAME", "SOURCE", "STATE", "CPU", "MEMORY"]) {
    for (const direction of ["ASC", "DESC"] as const) {
      it(`${field} ${direction}: one guest a page is the one-page order`, async () => {
        const whole = await allAtOnce({ field, direction });
        expect(whole).toHaveLength(6);
        expect(await pageByPage({ field, direction }, 1)).toEqual(whole);
      });
    }
  }
});

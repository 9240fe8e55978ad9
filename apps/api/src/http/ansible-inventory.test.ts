// docs/behaviour.md §14.10–§14.14: Ansible's own `ansible-inventory` reads Hyperlens through
// bin/hyperlens-inventory, against a server synced from the stand-ins.
import { execFile } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { vmGlobalId } from "../schema/virtual-machine.ts";
import { type InventoryWorld, startInventoryWorld } from "../testing/inventory-world.ts";

const run = promisify(execFile);
const ROOT = path.resolve(import.meta.dirname, "../../../..");
const LAUNCHER = path.join(ROOT, "bin/hyperlens-inventory");
const ANSIBLE = "/usr/bin/ansible-inventory";

type Inventory = {
  _meta: { hostvars: Record<string, Record<string, unknown>> };
} & Record<string, { hosts?: string[]; children?: string[] }>;

let world: InventoryWorld;
let token: string;
let home: string;

beforeAll(async () => {
  if (!existsSync(ANSIBLE))
    throw new Error(
      `${ANSIBLE} is missing: install Debian's ansible and python3-requests (apt-get install ansible python3-requests; .ci/run does).`,
    );
  home = mkdtempSync(path.join(tmpdir(), "hyperlens-ansible-"));
  world = await startInventoryWorld();
  token = await world.token();
}, 120_000);

afterAll(async () => {
  await world?.close();
  if (home) rmSync(home, { recursive: true, force: true });
});

/** `ansible-inventory -i bin/hyperlens-inventory <args>`, as an operator runs it. */
async function ansibleInventory(args: string[], query = "") {
  const { stdout } = await run(ANSIBLE, ["-i", LAUNCHER, ...args], {
    env: {
      PATH: process.env.PATH,
      HOME: home,
      ANSIBLE_HOME: home,
      ANSIBLE_LOCAL_TEMP: home,
      // A broken inventory is an error, not a warning and an empty inventory.
      ANSIBLE_INVENTORY_UNPARSED_FAILED: "true",
      HYPERLENS_URL: world.app.url,
      HYPERLENS_TOKEN: token,
      HYPERLENS_INVENTORY_QUERY: query,
    },
    maxBuffer: 64 * 1024 * 1024,
  });
  return stdout;
}

async function list(query = ""): Promise<Inventory> {
  return JSON.parse(await ansibleInventory(["--list"], query));
}

/** The Proxmox hosts of this name (the demo Director has a web-01 too). */
function hostsNamed(inventory: Inventory, name: string) {
  return Object.entries(inventory._meta.hostvars).filter(
    ([, v]) => v.hyperlens_name === name && v.hyperlens_source === "PROXMOX",
  );
}

// Each test starts Ansible's Python several times, some 10 s each on a loaded two-core machine.
describe("the Ansible inventory through ansible-inventory", { timeout: 120_000 }, () => {
  it("lists every guest the caller sees exactly once, same-named guests under distinct names (§14.10)", async () => {
    const inventory = await list();
    const stored = await world.app.services.prisma.virtualMachine.findMany({
      where: { removedAt: null },
      select: { id: true, source: true, name: true },
    });
    const ids = Object.values(inventory._meta.hostvars).map((v) => v.hyperlens_id);
    expect(ids.length).toBe(stored.length);
    expect(new Set(ids)).toEqual(new Set(stored.map(vmGlobalId)));
    // The demo cluster is behind two connections and the demo Director has a web-01 too: three
    // web-01s, the one of pve-a (synced first) under the bare name, the others with a suffix.
    const webs = Object.entries(inventory._meta.hostvars).filter(
      ([, v]) => v.hyperlens_name === "web-01",
    );
    expect(webs.map(([, v]) => v.hyperlens_connection).sort()).toEqual(["pve-a", "pve-b", "vcd"]);
    const bare = webs.find(([name]) => name === "web-01");
    expect(bare?.[1].hyperlens_connection).toBe("pve-a");
    for (const [name, vars] of webs.filter(([name]) => name !== "web-01")) {
      const id = stored.find((vm) => vmGlobalId(vm) === vars.hyperlens_id)?.id ?? "";
      expect(name).toBe(`web-01-${id.replaceAll("-", "").slice(0, 8)}`);
    }
  });

  it("names hosts the same from one export to the next, filtered or not (§14.10)", async () => {
    const all = await list();
    const filtered = await list("source=PROXMOX&tags=web");
    for (const [name, vars] of Object.entries(filtered._meta.hostvars))
      expect(all._meta.hostvars[name]?.hyperlens_id).toBe(vars.hyperlens_id);
    const tagged = await world.app.services.prisma.virtualMachine.count({
      where: { removedAt: null, source: "PROXMOX", tags: { has: "web" } },
    });
    expect(Object.keys(filtered._meta.hostvars).length).toBe(tagged);
    expect(tagged).toBeGreaterThanOrEqual(4);
  });

  it("sets ansible_host to the primary address: IPv4 first, or as asked (§14.11)", async () => {
    const pick = async (query: string, name: string) =>
      hostsNamed(await list(query), name).find(([, v]) => v.hyperlens_connection === "pve-a")?.[1];
    const web = await pick("", "web-01");
    expect(web?.ansible_host).toBe("10.10.0.11");
    expect(web?.hyperlens_ips).toEqual(["10.10.0.11", "2001:db8:10::11"]);
    expect((await pick("prefer=ipv6", "web-01"))?.ansible_host).toBe("2001:db8:10::11");
    expect((await pick("", "db-01"))?.ansible_host).toBe("10.10.0.21");
    expect((await pick("subnet=10.20.0.0/16", "db-01"))?.ansible_host).toBe("10.20.0.21");
  });

  it("never takes a rejected or last-known address for ansible_host (§14.11)", async () => {
    const web = hostsNamed(await list(), "web-01")[0]?.[1];
    // docker0's 172.17.0.1 is reported by the agent and rejected.
    expect(web?.hyperlens_ips).not.toContain("172.17.0.1");
    const guest = world.proxmox.cluster.guest(100);
    if (guest?.type !== "qemu") throw new Error("the demo cluster's vmid 100 is a QEMU VM");
    const answering = guest.agent;
    world.proxmox.cluster.setAgent(100, { state: "silent" });
    try {
      await world.syncAll();
      const silent = hostsNamed(await list(), "web-01");
      const stored = await world.app.services.prisma.ipAddress.count({
        where: { isLastKnown: true, vm: { name: "web-01" } },
      });
      expect(stored).toBeGreaterThan(0);
      for (const [, vars] of silent) {
        expect(vars.ansible_host).toBeUndefined();
        expect(vars.hyperlens_ips).toEqual([]);
      }
    } finally {
      world.proxmox.cluster.setAgent(100, answering);
      await world.syncAll();
    }
  });

  it("groups hosts by source, connection, cluster, node, org, VDC, state, tag and OS family (§14.13)", async () => {
    const inventory = await list();
    const vars = inventory._meta.hostvars;
    const members = (group: string) => new Set(inventory[group]?.hosts ?? []);
    const where = (test: (v: Record<string, unknown>) => boolean) =>
      new Set(Object.keys(vars).filter((name) => test(vars[name] ?? {})));
    expect(members("source_proxmox")).toEqual(where((v) => v.hyperlens_source === "PROXMOX"));
    expect(members("source_vcd")).toEqual(where((v) => v.hyperlens_source === "VCD"));
    expect(members("connection_pve_b")).toEqual(where((v) => v.hyperlens_connection === "pve-b"));
    expect(members("node_pve1")).toEqual(where((v) => v.hyperlens_node === "pve1"));
    expect(members("cluster_pve_prod")).toEqual(where((v) => v.hyperlens_cluster === "pve-prod"));
    expect(members("state_running")).toEqual(where((v) => v.hyperlens_state === "RUNNING"));
    expect(members("tag_prod")).toEqual(
      where((v) => (v.hyperlens_tags as string[]).includes("prod")),
    );
    expect(members("os_windows")).toEqual(where((v) => v.hyperlens_os_family === "windows"));
    expect(members("os_windows").size).toBeGreaterThan(0);
    expect(members("os_linux").size).toBeGreaterThan(0);
    // The Director stand-in names each VM's VDC (and, to a provider, no org).
    expect(members("vdc_acme_prod")).toEqual(where((v) => v.hyperlens_vdc === "acme-prod"));
    expect(members("vdc_acme_prod").size).toBeGreaterThan(0);
    for (const group of Object.keys(inventory).filter((g) => g !== "_meta"))
      expect(group).toMatch(/^[A-Za-z0-9_]+$/);
    expect(inventory.all?.children).toEqual(expect.arrayContaining(["source_proxmox", "tag_prod"]));
  });

  it("draws the same groups in --graph (§14.13)", async () => {
    const graph = await ansibleInventory(["--graph"]);
    expect(graph).toMatch(/^@all:/);
    expect(graph).toContain("--@source_proxmox:");
    expect(graph).toContain("--@connection_pve_a:");
    expect(graph).toMatch(/\|--web-01\n/);
  });

  it("--host prints a host's variables, and {} for a name it does not hold (§14.14)", async () => {
    const web = JSON.parse(await ansibleInventory(["--host", "web-01"]));
    expect(web.ansible_host).toBe("10.10.0.11");
    const { stdout } = await run(LAUNCHER, ["--host", "no-such-host"], {
      env: { ...process.env, HYPERLENS_URL: world.app.url, HYPERLENS_TOKEN: token },
    });
    expect(JSON.parse(stdout)).toEqual({});
  });
});

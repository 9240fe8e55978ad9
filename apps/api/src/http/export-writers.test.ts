// docs/behaviour.md §14.10, §14.13, §14.15: the exports' JSON is written by hand, field by field and
// straight into UTF-8 buffers, so these check it against what JSON.parse reads back — hostile names,
// missing values, characters split across buffers — beside the end-to-end tests through Ansible
// and Prometheus.
import { describe, expect, it } from "vitest";
import { writeAnsibleInventory } from "./ansible-inventory.ts";
import type { HostRow, InventoryHost } from "./inventory-hosts.ts";
import { writePrometheusTargets } from "./prometheus-sd.ts";
import { Utf8Chunks } from "./utf8-chunks.ts";

/** What a guest's source may call anything: quotes, escapes, controls, separators, emoji. */
const HOSTILE = 'a"b\\c\n\u0001\u2028 \ud83d\ude80 ünï';

function host(overrides: Partial<HostRow> = {}, hostName = "web-01"): InventoryHost {
  const row: HostRow = {
    id: "3f9c2a1b-0000-4000-8000-000000000000",
    name: hostName,
    source: "PROXMOX",
    connectionId: "c1",
    kind: "VM",
    state: "RUNNING",
    cpuCount: 4,
    memoryBytes: 4 * 1024 ** 3,
    guestOs: "l26",
    tags: ["web", "prod"],
    nodeName: "pve1",
    clusterName: "lab",
    datacenterName: null,
    hostName: null,
    orgName: null,
    vdcName: null,
    vappName: null,
    primaryAddress: null,
    ips: [],
    macs: [],
    ...overrides,
  };
  return {
    hostName,
    globalId: "Vk06abc",
    row,
    connectionName: "Lab PVE",
    addresses: ["10.0.0.5", "fd00::5"],
    primaryAddress: "10.0.0.5",
    macs: ["bc:24:11:00:00:01"],
  };
}

async function written(
  write: (out: Utf8Chunks) => Promise<void>,
): Promise<{ text: string; chunks: Buffer[] }> {
  const chunks: Buffer[] = [];
  await write(new Utf8Chunks(async (chunk) => void chunks.push(Buffer.from(chunk))));
  return { text: Buffer.concat(chunks).toString("utf8"), chunks };
}

async function* pagesOf(...pages: InventoryHost[][]) {
  yield* pages;
}

describe("the Ansible inventory's JSON (§14.10, §14.13)", () => {
  it("reads back as the host's variables, whatever its names hold", async () => {
    const hostile = host(
      {
        name: HOSTILE,
        tags: [HOSTILE, ""],
        guestOs: HOSTILE,
        nodeName: HOSTILE,
        orgName: HOSTILE,
        cpuCount: null,
        memoryBytes: null,
      },
      HOSTILE,
    );
    const bare = { ...host({}, "db-01"), addresses: [], primaryAddress: undefined, macs: [] };
    const { text } = await written((out) =>
      writeAnsibleInventory(pagesOf([hostile], [], [bare]), out),
    );
    const inventory = JSON.parse(text);
    expect(inventory._meta.hostvars[HOSTILE]).toEqual({
      ansible_host: "10.0.0.5",
      hyperlens_id: "Vk06abc",
      hyperlens_name: HOSTILE,
      hyperlens_source: "PROXMOX",
      hyperlens_connection: "Lab PVE",
      hyperlens_kind: "VM",
      hyperlens_state: "RUNNING",
      hyperlens_node: HOSTILE,
      hyperlens_cluster: "lab",
      hyperlens_datacenter: null,
      hyperlens_host: null,
      hyperlens_org: HOSTILE,
      hyperlens_vdc: null,
      hyperlens_vapp: null,
      hyperlens_tags: [HOSTILE, ""],
      hyperlens_os: HOSTILE,
      hyperlens_os_family: "other",
      hyperlens_cpus: null,
      hyperlens_memory_bytes: null,
      hyperlens_ips: ["10.0.0.5", "fd00::5"],
      hyperlens_macs: ["bc:24:11:00:00:01"],
    });
    expect(inventory._meta.hostvars["db-01"]).not.toHaveProperty("ansible_host");
    expect(inventory._meta.hostvars["db-01"]).toMatchObject({
      hyperlens_cpus: 4,
      hyperlens_memory_bytes: 4 * 1024 ** 3,
      hyperlens_ips: [],
      hyperlens_macs: [],
      hyperlens_os_family: "linux",
    });
  });

  it("puts a host in a group once, though two of its tags name that group", async () => {
    const guests = [
      host({ tags: ["a b", "a_b", "A-B"] }, "web-01"),
      host({ tags: ["a-b"], nodeName: "pve2" }, "web-02"),
    ];
    const inventory = JSON.parse(
      (await written((out) => writeAnsibleInventory(pagesOf(guests), out))).text,
    );
    expect(inventory.tag_a_b).toEqual({ hosts: ["web-01", "web-02"] });
    expect(inventory.node_pve1).toEqual({ hosts: ["web-01"] });
    expect(inventory.node_pve2).toEqual({ hosts: ["web-02"] });
    expect(inventory.all.children).toEqual([
      "ungrouped",
      ...Object.keys(inventory)
        .filter((key) => !["_meta", "all", "ungrouped"].includes(key))
        .sort(),
    ]);
    expect(inventory.all.children).toContain("connection_lab_pve");
  });
});

describe("Prometheus' targets' JSON (§14.15)", () => {
  it("reads back as the guest's labels, whatever its names hold", async () => {
    const guest = host({ name: HOSTILE, tags: [HOSTILE, "prod"], guestOs: null, nodeName: null });
    const { text } = await written((out) =>
      writePrometheusTargets(
        pagesOf([guest, { ...guest, primaryAddress: undefined }]),
        [9100, 9182],
        out,
      ),
    );
    const labels = {
      __meta_hyperlens_source: "PROXMOX",
      __meta_hyperlens_connection: "Lab PVE",
      __meta_hyperlens_node: "",
      __meta_hyperlens_cluster: "lab",
      __meta_hyperlens_org: "",
      __meta_hyperlens_vdc: "",
      __meta_hyperlens_state: "RUNNING",
      __meta_hyperlens_tags: `,${HOSTILE},prod,`,
      __meta_hyperlens_os: "",
      __meta_hyperlens_vm_name: HOSTILE,
      __meta_hyperlens_vm_id: "Vk06abc",
    };
    expect(JSON.parse(text)).toEqual([
      { targets: ["10.0.0.5:9100"], labels },
      { targets: ["10.0.0.5:9182"], labels },
    ]);
  });
});

describe("text into UTF-8 buffers", () => {
  it("keeps every character whole and in order, across buffers and past a buffer's size", async () => {
    const pieces = [
      ...Array.from({ length: 40_000 }, (_, i) => (i % 3 === 0 ? "\ud83d\ude80" : `é${i}`)),
      "x".repeat(200_000),
      "ü".repeat(30_000),
      "end",
    ];
    const { text, chunks } = await written(async (out) => {
      for (const piece of pieces) out.add(piece);
      await out.flush(true);
    });
    expect(text).toBe(pieces.join(""));
    expect(chunks.length).toBeGreaterThan(3);
  });

  it("hands nothing on until asked, and everything when asked for all", async () => {
    const chunks: Buffer[] = [];
    const out = new Utf8Chunks(async (chunk) => void chunks.push(chunk));
    out.add("first");
    await out.flush();
    expect(chunks).toEqual([]);
    await out.flush(true);
    expect(Buffer.concat(chunks).toString()).toBe("first");
  });
});

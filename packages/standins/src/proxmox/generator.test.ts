import { describe, expect, it } from "vitest";
import { demoCluster } from "./demo-cluster.ts";
import { generateCluster } from "./generator.ts";
import type { QemuGuest } from "./model.ts";

describe("generateCluster", () => {
  it("is deterministic for a seed and differs between seeds", () => {
    const a = generateCluster({ nodes: 3, guests: 200, seed: 42 });
    const b = generateCluster({ nodes: 3, guests: 200, seed: 42 });
    const c = generateCluster({ nodes: 3, guests: 200, seed: 43 });
    expect(JSON.stringify(a.guests)).toBe(JSON.stringify(b.guests));
    expect(JSON.stringify(a.guests)).not.toBe(JSON.stringify(c.guests));
  });

  it("builds 10 nodes and 5,000 guests with unique vmids and NIC MACs", () => {
    const cluster = generateCluster({ nodes: 10, guests: 5000, seed: 7 });
    expect(cluster.nodes).toHaveLength(10);
    expect(cluster.guests).toHaveLength(5000);
    expect(new Set(cluster.guests.map((g) => g.vmid)).size).toBe(5000);
    const macs = cluster.guests.flatMap((g) =>
      Object.entries(g.config)
        .filter(([key]) => /^net\d+$/.test(key))
        .map(([, line]) => /([0-9A-F]{2}(:[0-9A-F]{2}){5})/.exec(String(line))?.[1]),
    );
    expect(new Set(macs).size).toBe(macs.length);
    for (const node of cluster.nodes) expect(cluster.guestsOn(node.name).length).toBe(500);
  });

  it("mixes the cases an inventory must handle", () => {
    const cluster = generateCluster({ nodes: 4, guests: 1000, seed: 3, offlineNodes: ["pve4"] });
    const vms = cluster.guests.filter((g): g is QemuGuest => g.type === "qemu");
    const containers = cluster.guests.filter((g) => g.type === "lxc");
    expect(containers.length).toBeGreaterThan(100);
    expect(vms.some((g) => g.config.agent === undefined)).toBe(true);
    expect(vms.some((g) => g.agent.state === "silent")).toBe(true);
    expect(cluster.guests.some((g) => g.status === "stopped")).toBe(true);
    expect(cluster.guests.some((g) => g.template)).toBe(true);
    expect(containers.some((g) => String(g.config.net0).includes("ip=dhcp"))).toBe(true);
    const names = vms.flatMap((g) =>
      g.agent.state === "answers" ? g.agent.interfaces.map((i) => i.name) : [],
    );
    expect(names).toEqual(expect.arrayContaining(["lo", "docker0", "cni0", "wg0"]));
    expect(names.some((n) => n.startsWith("veth"))).toBe(true);
    expect(
      new Set(vms.map((g) => /^(\w+)=/.exec(String(g.config.net0))?.[1])).size,
    ).toBeGreaterThan(3);
    expect(cluster.node("pve4")?.online).toBe(false);
  });

  it("a null cluster name gives a standalone node", () => {
    expect(generateCluster({ nodes: 1, guests: 5, clusterName: null }).name).toBeUndefined();
  });
});

describe("demoCluster", () => {
  it("holds the cases the demo should show", () => {
    const cluster = demoCluster();
    expect(cluster.nodes.some((n) => !n.online)).toBe(true);
    expect(cluster.guestsOn("pve4").length).toBeGreaterThan(0);
    expect(cluster.guests.some((g) => g.template)).toBe(true);
    expect(
      cluster.guests.some((g) => g.type === "lxc" && String(g.config.net0).includes("ip=dhcp")),
    ).toBe(true);
    expect(cluster.guests.some((g) => g.type === "qemu" && g.config.agent === undefined)).toBe(
      true,
    );
  });
});

import type { ProxmoxCluster, ProxmoxNode } from "./model.ts";
import type { VersionTraits } from "./versions.ts";

type Json = Record<string, unknown>;

/** Deterministic "live" figures of a node, so answers repeat across runs. */
function nodeLoad(node: ProxmoxNode, index: number) {
  return {
    cpu: 0.02 + (index % 7) / 100,
    mem: Math.floor(node.maxmem * (0.3 + (index % 5) / 20)),
    disk: Math.floor(node.maxdisk * 0.12),
    uptime: 2_236_708 + index * 86_400,
  };
}

/** One entry of GET /nodes; offline nodes keep only id/node/ssl_fingerprint/status/type. */
export function nodeListEntry(node: ProxmoxNode, index: number): Json {
  const base = { id: `node/${node.name}`, node: node.name, ssl_fingerprint: node.sslFingerprint };
  if (!node.online) return { ...base, status: "offline", type: "node" };
  const load = nodeLoad(node, index);
  return {
    cpu: load.cpu,
    disk: load.disk,
    ...base,
    level: node.level,
    maxcpu: node.maxcpu,
    maxdisk: node.maxdisk,
    maxmem: node.maxmem,
    mem: load.mem,
    status: "online",
    type: "node",
    uptime: load.uptime,
  };
}

/** Body of GET /cluster/status: a `cluster` entry first (only when clustered), then the nodes. */
export function clusterStatus(cluster: ProxmoxCluster): Json[] {
  const nodes = cluster.nodes;
  const clustered = cluster.name !== undefined;
  const entries: Json[] = nodes.map((node, index) => ({
    id: `node/${node.name}`,
    ip: node.ip,
    level: node.level,
    local: index === 0 ? 1 : 0,
    name: node.name,
    nodeid: clustered ? index + 1 : 0,
    online: node.online ? 1 : 0,
    type: "node",
  }));
  if (!clustered) return entries.slice(0, 1);
  return [
    {
      id: "cluster",
      name: cluster.name,
      nodes: nodes.length,
      quorate: nodes.filter((n) => n.online).length * 2 > nodes.length ? 1 : 0,
      type: "cluster",
      version: nodes.length + 1,
    },
    ...entries,
  ];
}

/** Node and storage entries of GET /cluster/resources. */
export function nodeResources(node: ProxmoxNode, index: number, traits: VersionTraits): Json[] {
  const entry: Json = {
    id: `node/${node.name}`,
    node: node.name,
    status: node.online ? "online" : "offline",
    type: "node",
  };
  if (node.online) {
    const load = nodeLoad(node, index);
    Object.assign(entry, {
      cpu: load.cpu,
      disk: load.disk,
      level: node.level,
      maxcpu: node.maxcpu,
      maxdisk: node.maxdisk,
      maxmem: node.maxmem,
      mem: load.mem,
      uptime: load.uptime,
    });
    if (traits.release !== "7.4") entry["cgroup-mode"] = 2;
  }
  const storages: Json[] = ["local", "local-lvm"].map((storage) => ({
    content: storage === "local" ? "iso,vztmpl,backup" : "rootdir,images",
    disk: node.online ? Math.floor(node.maxdisk * 0.2) : 0,
    id: `storage/${node.name}/${storage}`,
    maxdisk: node.online ? node.maxdisk * 4 : 0,
    node: node.name,
    plugintype: storage === "local" ? "dir" : "lvmthin",
    shared: 0,
    status: node.online ? "available" : "unknown",
    storage,
    type: "storage",
  }));
  return [entry, ...storages];
}

/** Body of GET /nodes/{node}/status (the fields an inventory reads, shaped like the 7.4 capture). */
export function nodeStatus(node: ProxmoxNode, index: number, traits: VersionTraits): Json {
  const load = nodeLoad(node, index);
  return {
    cpu: load.cpu,
    cpuinfo: {
      cores: Math.max(1, node.maxcpu / 2),
      cpus: node.maxcpu,
      hvm: "1",
      mhz: "3400.000",
      model: "Intel(R) Xeon(R) Gold 6338 CPU @ 2.00GHz",
      sockets: 1,
      user_hz: 100,
    },
    idle: 0,
    ksm: { shared: 0 },
    kversion: traits.kversion,
    loadavg: ["0.42", "0.38", "0.35"],
    memory: { free: node.maxmem - load.mem, total: node.maxmem, used: load.mem },
    pveversion: traits.pveversion,
    rootfs: {
      avail: node.maxdisk - load.disk,
      free: node.maxdisk - load.disk,
      total: node.maxdisk,
      used: load.disk,
    },
    swap: { free: 0, total: 0, used: 0 },
    uptime: load.uptime,
    wait: 0,
  };
}

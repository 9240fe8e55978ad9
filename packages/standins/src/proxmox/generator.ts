import { SeededRandom } from "../random.ts";
import {
  agentInterface,
  lxcGuest,
  proxmoxNode,
  type QemuDiskSpec,
  qemuGuest,
} from "./guest-builders.ts";
import type { AgentBehaviour, AgentInterface, Guest } from "./model.ts";
import { ProxmoxCluster } from "./model.ts";

/** Options of {@link generateCluster}; shares are probabilities in [0, 1]. */
export interface GenerateClusterOptions {
  /** Default 3. */
  nodes?: number;
  /** Default 100. */
  guests?: number;
  /** PRNG seed; the same seed gives the same cluster. Default 1. */
  seed?: number;
  /** Cluster name; `null` for a standalone node (then use `nodes: 1`). Default "pve-bench". */
  clusterName?: string | null;
  /** Names of nodes that are offline (their guests stay in the model). */
  offlineNodes?: string[];
  /** Share of containers. Default 0.3. */
  containerShare?: number;
  /** Share of running guests. Default 0.85. */
  runningShare?: number;
  /** Share of VMs with `agent` in their config. Default 0.75. */
  agentShare?: number;
  /** Share of agent-enabled running VMs whose agent does not answer. Default 0.1. */
  silentAgentShare?: number;
  /** Share of templates. Default 0.02. */
  templateShare?: number;
  /** First vmid; guests are numbered upwards. Default 100. */
  firstVmid?: number;
}

const ROLES = [
  "web",
  "api",
  "db",
  "cache",
  "k8s-worker",
  "ci-runner",
  "mail",
  "vpn",
  "monitor",
  "files",
];
const NIC_MODELS = [
  "virtio",
  "virtio",
  "virtio",
  "virtio",
  "e1000",
  "e1000e",
  "vmxnet3",
  "rtl8139",
];
const GIB_SIZES = [16, 32, 32, 64, 128, 256];
const MEMORY_MIB = [1024, 2048, 4096, 4096, 8192, 16384];

/**
 * A deterministic cluster of any size (nodes named pve1…pveN, guests spread round-robin),
 * for scale tests and benchmarks: 10 nodes × 5,000 guests builds in well under a second.
 */
export function generateCluster(options: GenerateClusterOptions = {}): ProxmoxCluster {
  const random = new SeededRandom(options.seed ?? 1);
  const nodeCount = options.nodes ?? 3;
  const offline = new Set(options.offlineNodes ?? []);
  const nodes = Array.from({ length: nodeCount }, (_, i) =>
    proxmoxNode(
      {
        name: `pve${i + 1}`,
        online: !offline.has(`pve${i + 1}`),
        maxcpu: 64,
        maxmem: 512 * 1024 ** 3,
      },
      i,
    ),
  );
  const guests: Guest[] = [];
  const firstVmid = options.firstVmid ?? 100;
  for (let i = 0; i < (options.guests ?? 100); i += 1) {
    const vmid = firstVmid + i;
    const node = `pve${(i % nodeCount) + 1}`;
    const subnet = `10.${16 + Math.floor(i / 62_500)}.${Math.floor(i / 250) % 250}`;
    const ip = `${subnet}.${(i % 250) + 2}`;
    const status = random.chance(options.runningShare ?? 0.85) ? "running" : "stopped";
    const template = random.chance(options.templateShare ?? 0.02);
    const role = random.pick(ROLES);
    const tags = random.chance(0.6) ? [random.pick(["prod", "staging", "dev"]), role] : [];
    if (random.chance(options.containerShare ?? 0.3)) {
      const dhcp = random.chance(0.3);
      guests.push(
        lxcGuest({
          vmid,
          name: `${role}-ct-${vmid}`,
          node,
          status: template ? "stopped" : status,
          template,
          tags,
          cpus: random.pick([1, 1, 2, 4]),
          memoryMiB: random.pick([512, 1024, 2048]),
          rootfsGiB: random.pick([8, 16, 32]),
          nics: [
            {
              mac: macFor(0x5b, i, 0),
              ip: dhcp ? "dhcp" : `${ip}/24`,
              gw: dhcp ? undefined : `${subnet}.1`,
              ip6: random.chance(0.3)
                ? `fd00:${(i >> 8).toString(16)}::${(i & 0xff).toString(16)}/64`
                : undefined,
              leasedIp: dhcp ? `${ip}/24` : undefined,
            },
          ],
        }),
      );
      continue;
    }
    const nicCount = random.chance(0.15) ? 2 : 1;
    const nics = Array.from({ length: nicCount }, (_, n) => ({
      model: random.pick(NIC_MODELS),
      mac: macFor(0x4a, i, n),
      bridge: n === 0 ? "vmbr0" : "vmbr1",
      tag: n === 0 ? undefined : 20,
      guestIps: [n === 0 ? `${ip}/24` : `10.200.${Math.floor(i / 250) % 250}.${(i % 250) + 2}/24`],
    }));
    const disks: QemuDiskSpec[] = [
      {
        bus: random.pick(["scsi", "scsi", "scsi", "virtio", "sata"] as const),
        index: 0,
        sizeGiB: random.pick(GIB_SIZES),
      },
    ];
    if (random.chance(0.25)) disks.push({ bus: "scsi", index: 1, sizeGiB: random.pick(GIB_SIZES) });
    if (random.chance(0.4)) disks.push({ bus: "ide", index: 2, cdrom: true });
    const hasAgent = random.chance(options.agentShare ?? 0.75);
    const agentReply: AgentBehaviour | undefined =
      hasAgent && random.chance(options.silentAgentShare ?? 0.1) ? { state: "silent" } : undefined;
    guests.push(
      qemuGuest({
        vmid,
        name: `${role}-${vmid}`,
        node,
        status: template ? "stopped" : status,
        template,
        tags,
        cpus: random.pick([1, 2, 2, 4, 8]),
        memoryMiB: random.pick(MEMORY_MIB),
        ostype: random.chance(0.1) ? "win11" : "l26",
        nics,
        disks,
        agent: hasAgent
          ? random.pick(["1", "1", "1,fstrim_cloned_disks=1", "enabled=1,type=virtio"])
          : false,
        agentReply,
        agentMacUpperCase: random.chance(0.15),
        extraAgentInterfaces: noiseInterfaces(random, role, i),
      }),
    );
  }
  return new ProxmoxCluster({
    name: options.clusterName === null ? undefined : (options.clusterName ?? "pve-bench"),
    nodes,
    guests,
  });
}

/** Interfaces inside a guest that are not its NICs: the ones an inventory must not take IPs from. */
function noiseInterfaces(random: SeededRandom, role: string, i: number): AgentInterface[] {
  const extra: AgentInterface[] = [];
  if (role === "k8s-worker" || random.chance(0.3)) {
    extra.push(
      agentInterface(
        "docker0",
        `02:42:${random.hex(1)}:${random.hex(1)}:${random.hex(1)}:${random.hex(1)}`,
        ["172.17.0.1/16"],
      ),
    );
    const veths = random.int(1, 3);
    for (let v = 0; v < veths; v += 1)
      extra.push(agentInterface(`veth${random.hex(4).slice(0, 7)}`, randomMac(random), []));
  }
  if (role === "k8s-worker") {
    extra.push(agentInterface("cni0", randomMac(random), [`10.244.${i % 250}.1/24`]));
    extra.push(agentInterface("flannel.1", randomMac(random), [`10.244.${i % 250}.0/32`]));
  }
  if (role === "vpn") extra.push(agentInterface("wg0", undefined, [`10.99.${i % 250}.1/24`]));
  if (random.chance(0.05))
    extra.push(
      agentInterface("virbr0", `52:54:00:${random.hex(1)}:${random.hex(1)}:${random.hex(1)}`, [
        "192.168.122.1/24",
      ]),
    );
  // Some agents omit keys entirely (no statistics, no addresses).
  if (random.chance(0.05))
    extra.push({ name: "br-internal", "hardware-address": randomMac(random) });
  return extra;
}

/** Proxmox's own OUI (BC:24:11), unique per guest index and NIC. */
function macFor(kind: number, index: number, nic: number): string {
  const hex = (n: number) => n.toString(16).toUpperCase().padStart(2, "0");
  return `BC:24:11:${hex((kind + nic + ((index >> 16) << 2)) & 0xff)}:${hex((index >> 8) & 0xff)}:${hex(index & 0xff)}`;
}

function randomMac(random: SeededRandom): string {
  // Locally administered unicast, as veth and bridge devices get.
  const first = (random.int(0, 255) & 0xfc) | 0x02;
  return [
    first.toString(16).padStart(2, "0"),
    random.hex(1),
    random.hex(1),
    random.hex(1),
    random.hex(1),
    random.hex(1),
  ].join(":");
}

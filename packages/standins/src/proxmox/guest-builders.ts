import type {
  AgentBehaviour,
  AgentInterface,
  AgentIpAddress,
  ConfigValue,
  Guest,
  GuestStatus,
  LxcGuest,
  LxcInterface,
  ProxmoxNode,
  QemuGuest,
} from "./model.ts";

const GIB = 1024 ** 3;
const MIB = 1024 ** 2;

/** A VM network card: `netN: <model>=<MAC>,bridge=…`. */
export interface QemuNicSpec {
  /** virtio, e1000, e1000e, vmxnet3, rtl8139… (default virtio). */
  model?: string;
  mac: string;
  bridge?: string;
  tag?: number;
  firewall?: boolean;
  /** Addresses the guest agent reports on this card (CIDR). */
  guestIps?: string[];
  /** Interface name inside the guest (default ens18, ens19…). */
  guestName?: string;
}

/** A VM disk or CD-ROM drive. */
export interface QemuDiskSpec {
  bus: "scsi" | "virtio" | "sata" | "ide";
  index: number;
  storage?: string;
  sizeGiB?: number;
  /** A CD-ROM drive; `iso` names the inserted image (default: empty drive). */
  cdrom?: boolean;
  iso?: string;
}

/** What {@link qemuGuest} and {@link lxcGuest} both take. */
export interface GuestSpec {
  vmid: number;
  name: string;
  node: string;
  status?: GuestStatus;
  cpus?: number;
  memoryMiB?: number;
  tags?: string[];
  template?: boolean;
  pool?: string;
  ostype?: string;
  /** Config keys laid over the built ones (added, or replacing them). */
  extraConfig?: Record<string, ConfigValue>;
}

/** Everything {@link qemuGuest} needs; most fields have realistic defaults. */
export interface QemuGuestSpec extends GuestSpec {
  nics?: QemuNicSpec[];
  disks?: QemuDiskSpec[];
  /** The config `agent` value: true → "1", false → no key, or a raw string like "enabled=1,fstrim_cloned_disks=1". */
  agent?: boolean | string;
  /** Agent behaviour; default: answers with `lo` plus one interface per NIC. */
  agentReply?: AgentBehaviour;
  /** Interfaces the agent reports besides `lo` and the NICs (docker0, veth…, tunnels). */
  extraAgentInterfaces?: AgentInterface[];
  /** Report NIC MACs in upper case (the config is upper case; Linux agents report lower case). */
  agentMacUpperCase?: boolean;
}

/** Build a QEMU VM with consistent config lines, list figures and agent reply. */
export function qemuGuest(spec: QemuGuestSpec): QemuGuest {
  const nics = spec.nics ?? [];
  const disks = spec.disks ?? [{ bus: "scsi", index: 0, sizeGiB: 32 }];
  const cpus = spec.cpus ?? 2;
  const bootDisk = disks.find((d) => !d.cdrom);
  const config: Record<string, ConfigValue> = {
    boot: `order=${bootDisk ? diskKey(bootDisk) : "net0"}`,
    cores: cpus,
    cpu: "x86-64-v2-AES",
    meta: "creation-qemu=8.1.5,ctime=1710000000",
    numa: 0,
    ostype: spec.ostype ?? "l26",
    scsihw: "virtio-scsi-single",
    smbios1: `uuid=${uuidFor(spec.vmid)}`,
    sockets: 1,
    vmgenid: uuidFor(spec.vmid + 7919),
  };
  nics.forEach((nic, i) => {
    config[`net${i}`] = qemuNetLine(nic);
  });
  for (const disk of disks) config[diskKey(disk)] = qemuDiskLine(spec.vmid, disk);
  const agent = spec.agent ?? true;
  if (agent !== false) config.agent = agent === true ? "1" : agent;
  return {
    type: "qemu",
    ...guestCommon(spec, config, {
      cpus,
      maxmem: (spec.memoryMiB ?? 2048) * MIB,
      maxdisk: (bootDisk?.sizeGiB ?? 0) * GIB,
    }),
    agent:
      spec.agentReply ??
      ({
        state: "answers",
        interfaces: [
          loopbackInterface(),
          ...nics.map((nic, i) => nicInterface(nic, i, spec.agentMacUpperCase ?? false)),
          ...(spec.extraAgentInterfaces ?? []),
        ],
      } satisfies AgentBehaviour),
  };
}

/** A container network card: `netN: name=eth0,bridge=…,hwaddr=…,ip=…,type=veth`. */
export interface LxcNicSpec {
  name?: string;
  mac: string;
  bridge?: string;
  /** Static CIDR, or "dhcp", or omitted (no IPv4 configured). */
  ip?: string;
  gw?: string;
  /** Static CIDR, "dhcp", "auto", or omitted. */
  ip6?: string;
  gw6?: string;
  firewall?: boolean;
  /** Address a DHCP server handed out, seen live in …/interfaces while running. */
  leasedIp?: string;
}

/** Everything {@link lxcGuest} needs. */
export interface LxcGuestSpec extends GuestSpec {
  swapMiB?: number;
  rootfsGiB?: number;
  storage?: string;
  nics?: LxcNicSpec[];
}

/** Build an LXC container with consistent config lines and live interfaces. */
export function lxcGuest(spec: LxcGuestSpec): LxcGuest {
  const nics = spec.nics ?? [];
  const rootfsGiB = spec.rootfsGiB ?? 8;
  const swapMiB = spec.swapMiB ?? 512;
  const cpus = spec.cpus ?? 1;
  const config: Record<string, ConfigValue> = {
    arch: "amd64",
    cores: cpus,
    features: "nesting=1",
    ostype: spec.ostype ?? "debian",
    rootfs: `${spec.storage ?? "local-lvm"}:vm-${spec.vmid}-disk-0,size=${rootfsGiB}G`,
    swap: swapMiB,
    unprivileged: 1,
  };
  nics.forEach((nic, i) => {
    config[`net${i}`] = lxcNetLine(nic, i);
  });
  return {
    type: "lxc",
    ...guestCommon(spec, config, {
      cpus,
      maxmem: (spec.memoryMiB ?? 512) * MIB,
      maxdisk: rootfsGiB * GIB,
    }),
    maxswap: swapMiB * MIB,
    interfaces: [
      { name: "lo", hwaddr: "00:00:00:00:00:00", inet: "127.0.0.1/8", inet6: "::1/128" },
      ...nics.map((nic, i) => lxcLiveInterface(nic, i)),
    ],
  };
}

/**
 * The fields both guest kinds build alike from their spec; `config` holds the kind's own lines,
 * and the spec's `extraConfig` is laid over them here.
 */
function guestCommon(
  spec: GuestSpec,
  config: Record<string, ConfigValue>,
  figures: Pick<Guest, "cpus" | "maxmem" | "maxdisk">,
): Omit<Guest, "type" | "agent" | "maxswap" | "interfaces"> {
  Object.assign(config, spec.extraConfig);
  return {
    vmid: spec.vmid,
    name: spec.name,
    node: spec.node,
    status: spec.status ?? "running",
    ...figures,
    tags: spec.tags ?? [],
    template: spec.template ?? false,
    ...(spec.pool ? { pool: spec.pool } : {}),
    config,
  };
}

/** Build a node; figures have realistic defaults. */
export function proxmoxNode(
  spec: Pick<ProxmoxNode, "name"> & Partial<Omit<ProxmoxNode, "name">>,
  index = 0,
): ProxmoxNode {
  return {
    name: spec.name,
    online: spec.online ?? true,
    ip: spec.ip ?? `192.168.1.${11 + index}`,
    maxcpu: spec.maxcpu ?? 32,
    maxmem: spec.maxmem ?? 256 * GIB,
    maxdisk: spec.maxdisk ?? 100 * GIB,
    level: spec.level ?? "",
    sslFingerprint: spec.sslFingerprint ?? fingerprintFor(spec.name),
  };
}

/** `virtio=BC:24:11:…,bridge=vmbr0[,firewall=1][,tag=N]`. */
export function qemuNetLine(nic: QemuNicSpec): string {
  let line = `${nic.model ?? "virtio"}=${nic.mac},bridge=${nic.bridge ?? "vmbr0"}`;
  if (nic.firewall ?? true) line += ",firewall=1";
  if (nic.tag !== undefined) line += `,tag=${nic.tag}`;
  return line;
}

/** `local-lvm:vm-100-disk-0,iothread=1,size=32G`, or `none,media=cdrom`. */
export function qemuDiskLine(vmid: number, disk: QemuDiskSpec): string {
  if (disk.cdrom)
    return disk.iso
      ? `local:iso/${disk.iso},media=cdrom,size=${disk.sizeGiB ?? 1}G`
      : "none,media=cdrom";
  const options = disk.bus === "scsi" || disk.bus === "virtio" ? "iothread=1," : "";
  return `${disk.storage ?? "local-lvm"}:vm-${vmid}-disk-${disk.index},${options}size=${disk.sizeGiB ?? 32}G`;
}

/** `name=eth0,bridge=vmbr0,firewall=1,hwaddr=…,ip=…,type=veth`. */
export function lxcNetLine(nic: LxcNicSpec, index: number): string {
  const parts = [`name=${nic.name ?? `eth${index}`}`, `bridge=${nic.bridge ?? "vmbr0"}`];
  if (nic.firewall ?? true) parts.push("firewall=1");
  if (nic.gw) parts.push(`gw=${nic.gw}`);
  if (nic.gw6) parts.push(`gw6=${nic.gw6}`);
  parts.push(`hwaddr=${nic.mac}`);
  if (nic.ip) parts.push(`ip=${nic.ip}`);
  if (nic.ip6) parts.push(`ip6=${nic.ip6}`);
  parts.push("type=veth");
  return parts.join(",");
}

/** The agent's loopback entry (MAC all zeros, as real agents report it). */
export function loopbackInterface(): AgentInterface {
  return {
    name: "lo",
    "hardware-address": "00:00:00:00:00:00",
    "ip-addresses": [
      { "ip-address": "127.0.0.1", "ip-address-type": "ipv4", prefix: 8 },
      { "ip-address": "::1", "ip-address-type": "ipv6", prefix: 128 },
    ],
    statistics: zeroStatistics(),
  };
}

/** An agent interface entry with the given MAC and CIDR addresses. */
export function agentInterface(
  name: string,
  mac: string | undefined,
  cidrs: string[],
): AgentInterface {
  const entry: AgentInterface = { name };
  if (mac !== undefined) entry["hardware-address"] = mac;
  if (cidrs.length > 0) entry["ip-addresses"] = cidrs.map(agentAddress);
  entry.statistics = zeroStatistics();
  return entry;
}

/** Link-local IPv6 (EUI-64) for a MAC, as guests configure it. */
export function linkLocalFor(mac: string): string {
  const bytes = mac.split(":").map((part) => Number.parseInt(part, 16));
  const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0] = bytes;
  const hex = (hi: number, lo: number) => ((hi << 8) | lo).toString(16);
  return `fe80::${hex(a ^ 2, b)}:${hex(c, 0xff)}:${hex(0xfe, d)}:${hex(e, f)}/64`;
}

function nicInterface(nic: QemuNicSpec, index: number, upper: boolean): AgentInterface {
  const mac = upper ? nic.mac.toUpperCase() : nic.mac.toLowerCase();
  return agentInterface(nic.guestName ?? `ens${18 + index}`, mac, [
    ...(nic.guestIps ?? []),
    linkLocalFor(nic.mac),
  ]);
}

function lxcLiveInterface(nic: LxcNicSpec, index: number): LxcInterface {
  const live: LxcInterface = { name: nic.name ?? `eth${index}`, hwaddr: nic.mac.toLowerCase() };
  const inet = nic.ip && nic.ip !== "dhcp" ? nic.ip : nic.leasedIp;
  if (inet) live.inet = inet;
  live.inet6 =
    nic.ip6 && nic.ip6 !== "dhcp" && nic.ip6 !== "auto" ? nic.ip6 : linkLocalFor(nic.mac);
  return live;
}

function agentAddress(cidr: string): AgentIpAddress {
  const [address = cidr, prefix] = cidr.split("/");
  const isV6 = address.includes(":");
  return {
    "ip-address": address,
    "ip-address-type": isV6 ? "ipv6" : "ipv4",
    prefix: prefix === undefined ? (isV6 ? 128 : 32) : Number(prefix),
  };
}

function zeroStatistics(): Record<string, number> {
  return {
    "rx-bytes": 0,
    "rx-dropped": 0,
    "rx-errs": 0,
    "rx-packets": 0,
    "tx-bytes": 0,
    "tx-dropped": 0,
    "tx-errs": 0,
    "tx-packets": 0,
  };
}

function diskKey(disk: QemuDiskSpec): string {
  return `${disk.bus}${disk.index}`;
}

function uuidFor(n: number): string {
  const hex = (n * 2654435761).toString(16).padStart(12, "0").slice(-12);
  return `4f1c2a9e-7b3d-4e21-9c5a-${hex}`;
}

function fingerprintFor(name: string): string {
  let h = 2166136261;
  const bytes: string[] = [];
  for (let i = 0; i < 32; i += 1) {
    h = Math.imul(h ^ (name.charCodeAt(i % name.length) + i), 16777619) >>> 0;
    bytes.push((h & 0xff).toString(16).toUpperCase().padStart(2, "0"));
  }
  return bytes.join(":");
}

/** Power state as the Proxmox lists report it. */
export type GuestStatus = "running" | "stopped";

/** A value of a guest config key as GET …/config serves it (numbers may be strings). */
export type ConfigValue = string | number;

/** A cluster member. */
export interface ProxmoxNode {
  name: string;
  online: boolean;
  /** Cluster network address (in /cluster/status). */
  ip: string;
  maxcpu: number;
  /** Bytes. */
  maxmem: number;
  /** Bytes of the root file system. */
  maxdisk: number;
  /** Subscription level: "" none, "c" community, "b" basic, "s" standard, "p" premium. */
  level: string;
  sslFingerprint: string;
}

/** One address in a guest agent `network-get-interfaces` reply. */
export interface AgentIpAddress {
  "ip-address": string;
  "ip-address-type": "ipv4" | "ipv6";
  prefix: number;
}

/** One interface in a guest agent reply; keys are optional as in real replies. */
export interface AgentInterface {
  name: string;
  "hardware-address"?: string;
  "ip-addresses"?: AgentIpAddress[];
  statistics?: Record<string, number>;
}

/**
 * What an answering agent says about the guest itself: `get-host-name` and `get-osinfo` results
 * as qemu-ga spells them. Left out: the stand-in derives them from the guest's name and ostype.
 */
export interface AgentIdentityReply {
  hostName?: string;
  /** `guest-get-osinfo` keys: "pretty-name", "name", "version", "version-id", "kernel-release"… */
  osInfo?: Record<string, string>;
}

/** How the QEMU guest agent of a VM behaves when asked. */
export type AgentBehaviour =
  /** Answers with these interfaces (the VM must be running and have `agent` in its config). */
  | { state: "answers"; interfaces: AgentInterface[]; identity?: AgentIdentityReply }
  /** Configured but not answering the ping: 500 "QEMU guest agent is not running". */
  | { state: "silent" }
  /** Answers the ping but the command fails: 500 "VM N qga command … failed - <reason>". */
  | { state: "command-fails"; reason: string }
  /** Old qemu-ga on old PVE: HTTP 200 with an error object inside `result`. */
  | { state: "unsupported" };

/** One interface of GET /nodes/{node}/lxc/{vmid}/interfaces (PVE ≥ 8.1). */
export interface LxcInterface {
  name: string;
  hwaddr: string;
  /** CIDR, e.g. `10.0.0.5/24`. */
  inet?: string;
  inet6?: string;
}

interface GuestCommon {
  vmid: number;
  name: string;
  node: string;
  status: GuestStatus;
  cpus: number;
  /** Bytes. */
  maxmem: number;
  /** Bytes (boot disk for QEMU lists, rootfs for containers). */
  maxdisk: number;
  tags: string[];
  template: boolean;
  pool?: string;
  /** Seconds since start when running; derived from the vmid when absent. */
  uptime?: number;
  /**
   * Config keys as GET …/config returns them. `name`/`hostname`, `memory`, `tags`,
   * `template` and `digest` are served from the fields above, not from here.
   */
  config: Record<string, ConfigValue>;
}

/** A QEMU virtual machine. */
export interface QemuGuest extends GuestCommon {
  type: "qemu";
  agent: AgentBehaviour;
}

/** An LXC container. */
export interface LxcGuest extends GuestCommon {
  type: "lxc";
  /** Bytes. */
  maxswap: number;
  /** Live interfaces while running (GET …/lxc/{vmid}/interfaces). */
  interfaces: LxcInterface[];
}

/** A guest of either kind. */
export type Guest = QemuGuest | LxcGuest;

/** The data a cluster model starts from. */
export interface ClusterSpec {
  /** Cluster name; omit (or undefined) for a standalone node without a cluster. */
  name?: string;
  nodes: ProxmoxNode[];
  guests: Guest[];
}

/**
 * The mutable inventory a Proxmox stand-in serves. Tests change it between syncs through
 * these methods (add, remove, move guests; take nodes offline; change config); every answer
 * is rendered from the current state, so a change shows up on the next request.
 */
export class ProxmoxCluster {
  /** Cluster name, or undefined for a standalone node. */
  name: string | undefined;
  readonly #nodes = new Map<string, ProxmoxNode>();
  readonly #guests = new Map<number, Guest>();

  constructor(spec: ClusterSpec) {
    this.name = spec.name;
    for (const node of spec.nodes) this.addNode(node);
    for (const guest of spec.guests) this.addGuest(guest);
  }

  /** Nodes in the order they were added. */
  get nodes(): ProxmoxNode[] {
    return [...this.#nodes.values()];
  }

  /** Every guest, ordered by vmid. */
  get guests(): Guest[] {
    return [...this.#guests.values()].sort((a, b) => a.vmid - b.vmid);
  }

  /** A node by name. */
  node(name: string): ProxmoxNode | undefined {
    return this.#nodes.get(name);
  }

  /** A guest by vmid (vmids are unique cluster-wide, as in Proxmox). */
  guest(vmid: number): Guest | undefined {
    return this.#guests.get(vmid);
  }

  /** The guests of one node, optionally of one type, ordered by vmid. */
  guestsOn(node: string): Guest[];
  guestsOn<T extends Guest["type"]>(node: string, type: T): Extract<Guest, { type: T }>[];
  guestsOn(node: string, type?: Guest["type"]): Guest[] {
    return this.guests.filter((g) => g.node === node && (type === undefined || g.type === type));
  }

  /** Add a node (names must be unique). */
  addNode(node: ProxmoxNode): void {
    if (this.#nodes.has(node.name)) throw new Error(`node ${node.name} already exists`);
    this.#nodes.set(node.name, { ...node });
  }

  /** Take a node offline (its per-node calls answer 595) or bring it back. */
  setNodeOnline(name: string, online: boolean): void {
    this.#requireNode(name).online = online;
  }

  /** Add a guest on an existing node; the vmid must be free. */
  addGuest(guest: Guest): void {
    if (this.#guests.has(guest.vmid)) throw new Error(`vmid ${guest.vmid} already exists`);
    this.#requireNode(guest.node);
    this.#guests.set(guest.vmid, guest);
  }

  /** Remove a guest and return it. */
  removeGuest(vmid: number): Guest {
    const guest = this.#requireGuest(vmid);
    this.#guests.delete(vmid);
    return guest;
  }

  /** Migrate a guest to another node. */
  moveGuest(vmid: number, node: string): void {
    this.#requireNode(node);
    this.#requireGuest(vmid).node = node;
  }

  /** Start or stop a guest. */
  setStatus(vmid: number, status: GuestStatus): void {
    this.#requireGuest(vmid).status = status;
  }

  /** Rename a guest. */
  rename(vmid: number, name: string): void {
    this.#requireGuest(vmid).name = name;
  }

  /** Set (or with `undefined`, delete) one config key, e.g. `net1` or `agent`. */
  setConfig(vmid: number, key: string, value: ConfigValue | undefined): void {
    const guest = this.#requireGuest(vmid);
    if (value === undefined) delete guest.config[key];
    else guest.config[key] = value;
  }

  /** Change how a VM's guest agent answers. */
  setAgent(vmid: number, agent: AgentBehaviour): void {
    const guest = this.#requireGuest(vmid);
    if (guest.type !== "qemu") throw new Error(`vmid ${vmid} is a container, not a VM`);
    guest.agent = agent;
  }

  /** A deep copy, so one generated inventory can seed many independent stand-ins. */
  clone(): ProxmoxCluster {
    return new ProxmoxCluster(
      structuredClone({ name: this.name, nodes: this.nodes, guests: this.guests }),
    );
  }

  #requireNode(name: string): ProxmoxNode {
    const node = this.#nodes.get(name);
    if (!node) throw new Error(`no node ${name}`);
    return node;
  }

  #requireGuest(vmid: number): Guest {
    const guest = this.#guests.get(vmid);
    if (!guest) throw new Error(`no guest ${vmid}`);
    return guest;
  }
}

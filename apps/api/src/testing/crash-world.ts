// The hypervisors of the crash-safety test: a Proxmox cluster and a Cloud Director with a few hundred
// guests, slow enough that a sync takes seconds, and seeded changes between syncs (guests added,
// removed, moved, renamed, NICs and disks changed) so a killed sync has real work in flight.
import {
  createProxmoxStandin,
  createVcdStandin,
  DEFAULT_TOKEN,
  DEFAULT_VCD_USERS,
  generateCluster,
  generateDirector,
  type ProxmoxStandin,
  qemuDiskLine,
  qemuGuest,
  qemuNetLine,
  type SeededRandom,
  seededUuid,
  type VcdStandin,
  vcdNic,
  vcdVm,
  vmwareMac,
} from "@hyperlens/standins/testing";
import type { ConnectionInput } from "../services/connections.ts";

/** The stand-ins of one crash campaign. */
export interface CrashWorld {
  proxmox: ProxmoxStandin;
  vcd: VcdStandin;
  /** Requests both stand-ins have received so far. */
  requestCount(): number;
  setLatency(ms: number): void;
  close(): Promise<void>;
}

/** A connection the child process creates: its kind and what an administrator would enter. */
export interface CrashConnection {
  kind: "PROXMOX" | "VCD";
  input: ConnectionInput;
}

/** Starts both stand-ins with seeded inventories. */
export async function startCrashWorld(options: {
  seed: number;
  proxmoxGuests: number;
  directorVms: number;
  latencyMs: number;
}): Promise<CrashWorld> {
  const proxmox = await createProxmoxStandin({
    cluster: generateCluster({ nodes: 3, guests: options.proxmoxGuests, seed: options.seed }),
    latencyMs: options.latencyMs,
  });
  const vcd = await createVcdStandin({
    model: generateDirector({ vms: options.directorVms, seed: options.seed }),
    latencyMs: options.latencyMs,
  });
  return {
    proxmox,
    vcd,
    requestCount: () => proxmox.requests.length + vcd.requests.length,
    setLatency: (ms) => {
      proxmox.faults.latencyMs = ms;
      vcd.faults.latencyMs = ms;
    },
    close: async () => {
      await proxmox.close();
      await vcd.close();
    },
  };
}

/** The two connections, named so that a database's inventory can be compared by name. */
export function crashConnections(world: CrashWorld): CrashConnection[] {
  const [user, tokenId] = DEFAULT_TOKEN.id.split("!");
  const provider = DEFAULT_VCD_USERS.find((u) => u.role === "provider");
  if (!provider) throw new Error("the Director stand-in has no provider user");
  return [
    {
      kind: "PROXMOX",
      input: {
        name: "crash-proxmox",
        url: world.proxmox.url,
        caPem: world.proxmox.caPem,
        username: user ?? "",
        tokenId,
        secret: DEFAULT_TOKEN.secret,
      },
    },
    {
      kind: "VCD",
      input: {
        name: "crash-director",
        url: world.vcd.url,
        caPem: world.vcd.caPem,
        username: `${provider.user}@${provider.org}`,
        secret: provider.password,
      },
    },
  ];
}

const pickSome = <T>(random: SeededRandom, items: T[], count: number): T[] => {
  const pool = [...items];
  const picked: T[] = [];
  while (picked.length < count && pool.length) {
    picked.push(...pool.splice(random.int(0, pool.length - 1), 1));
  }
  return picked;
};

function changeProxmox(world: CrashWorld, random: SeededRandom, round: number): void {
  const cluster = world.proxmox.cluster;
  const nodes = cluster.nodes.map((n) => n.name);
  const otherNode = (node: string) => random.pick(nodes.filter((n) => n !== node));
  const picked = pickSome(
    random,
    cluster.guests.filter((g) => !g.template),
    8,
  );
  for (const guest of picked.slice(0, 3)) cluster.removeGuest(guest.vmid);
  for (const guest of picked.slice(3, 6)) cluster.moveGuest(guest.vmid, otherNode(guest.node));
  for (const guest of picked.slice(6)) cluster.rename(guest.vmid, `${guest.name}-r${round}`);
  const vms = cluster.guests.filter((g) => g.type === "qemu" && !g.template);
  for (const vm of pickSome(random, vms, 3)) {
    const mac = `BC:24:11:FE:${(round & 0xff).toString(16).padStart(2, "0")}:${random.hex(1)}`;
    cluster.setConfig(vm.vmid, "net3", qemuNetLine({ mac, bridge: "vmbr1" }));
    cluster.setConfig(
      vm.vmid,
      "scsi3",
      qemuDiskLine(vm.vmid, { bus: "scsi", index: 3, sizeGiB: random.int(8, 64) }),
    );
  }
  for (let i = 0; i < 3; i += 1) {
    const vmid = 10_000 + round * 10 + i;
    cluster.addGuest(
      qemuGuest({
        vmid,
        name: `added-${vmid}`,
        node: random.pick(nodes),
        nics: [{ mac: `BC:24:11:FD:${random.hex(1)}:${random.hex(1)}`, guestIps: [] }],
        disks: [{ bus: "scsi", index: 0, sizeGiB: 16 }],
      }),
    );
  }
}

function changeDirector(world: CrashWorld, random: SeededRandom, round: number): void {
  const model = world.vcd.model;
  const vapps = model.vapps.filter((v) => !v.template);
  const templates = new Set(model.vapps.filter((v) => v.template).map((v) => v.id));
  const vms = model.vms.filter((vm) => !templates.has(vm.vappId));
  const picked = pickSome(random, vms, 8);
  for (const vm of picked.slice(0, 2)) model.removeVm(vm.id);
  for (const vm of picked.slice(2, 4)) {
    const target = random.pick(vapps.filter((v) => v.id !== vm.vappId));
    model.updateVm(vm.id, { vappId: target.id });
  }
  for (const vm of picked.slice(4, 6)) model.renameVm(vm.id, `${vm.name}-r${round}`);
  for (const vm of picked.slice(6)) {
    const extra = vcdNic(
      { network: "crash-net", mac: vmwareMac(0xf00000 + round * 16 + random.int(0, 15)) },
      vm.nics.length,
    );
    model.setNics(vm.id, [...vm.nics, extra], vm.primaryNicIndex);
    model.updateVm(vm.id, { disks: [...vm.disks, { sizeMb: random.int(1, 64) * 1024 }] });
  }
  for (let i = 0; i < 3; i += 1) {
    model.addVm(
      vcdVm({
        id: seededUuid(random),
        name: `added-${round}-${i}`,
        vappId: random.pick(vapps).id,
        nics: [{ network: "crash-net", mac: vmwareMac(0xe00000 + round * 16 + i) }],
        diskGb: [random.int(10, 100)],
      }),
    );
  }
}

/** One seeded round of changes on both hypervisors (small enough never to trip the guard). */
export function changeInventory(world: CrashWorld, random: SeededRandom, round: number): void {
  changeProxmox(world, random, round);
  changeDirector(world, random, round);
}

// vCenter under random inventories, list caps and failures (docs/behaviour.md §5). Pure runs drive the real
// list/split logic (readVmListing) over generated inventories, and the real client and adapter
// (readVcenterInventory) over the in-process stand-in; a few runs go HTTPS stand-in → client →
// adapter → runSync on PGlite. Every session is deleted, whatever failed.
import { HyperError } from "@hyperlens/hyper-http";
import type { ListRead, SourceSnapshot } from "@hyperlens/shared";
import {
  createInProcessVcenter,
  createVcenterStandin,
  DEFAULT_VCENTER_PASSWORD,
  DEFAULT_VCENTER_USERS,
  extraInterface,
  generateVcenter,
  type InProcessVcenter,
  nicInterface,
  VCENTER_RELEASES,
  type VcenterModel,
  type VcenterRelease,
  type VcenterVm,
  vcenterDisk,
  vcenterMac,
  vcenterNic,
  vcenterReleaseTraits,
  vcenterVm,
} from "@hyperlens/standins/testing";
import type { StoredVmState } from "@hyperlens/sync";
import {
  createVcenterClient,
  readVcenterInventory,
  readVmListing,
  VCENTER_VM_LIST_KEY,
  type VcenterClient,
  type VcenterVmSummary,
  VM_LIST_CAP,
  type VmFilter,
} from "@hyperlens/vcenter";
import fc from "fast-check";
import type { Dispatcher } from "undici";
import { describe, expect, it } from "vitest";
import {
  checkAsyncProperty,
  checkEndToEnd,
  expectConverges,
  installListFault,
  midReadExpiry,
  neutralVm,
  PURE_RUNS,
  reconcileInMemory,
  useFileDatabase,
  World,
  worldChanges,
} from "../testing/property-harness.ts";
import { registerSecret } from "../testing/secret-registry.ts";

const KEY = VCENTER_VM_LIST_KEY;
/** vCenter has one VM list: every place (host) is read into it. */
const inTheList = () => KEY;
const USER = DEFAULT_VCENTER_USERS[0]?.user ?? "hyperlens@vsphere.local";

// ------------------------------------------------------------ the list and its split ----------

const LIST_FAULTS = [
  "refuse-500",
  "status-503",
  "status-401",
  "status-403",
  "timeout",
  "malformed",
  "cut-at-cap",
] as const;
type ListFaultKind = (typeof LIST_FAULTS)[number];

/** One list call that goes wrong: the whole list, a host's part or a folder's part. */
const listFault = fc.record({
  target: fc.constantFrom("whole" as const, "host" as const, "folder" as const),
  index: fc.nat({ max: 5 }),
  kind: fc.constantFrom(...LIST_FAULTS),
});
type ListFault = typeof listFault extends fc.Arbitrary<infer T> ? T : never;

/** What the real client makes of an error answer (the HyperError its callers see). */
function answerError(kind: ListFaultKind, call: string): HyperError {
  const status = { "refuse-500": 500, "status-503": 503, "status-401": 401, "status-403": 403 };
  if (kind in status) {
    const code = status[kind as keyof typeof status];
    return new HyperError(`HTTP ${code} for ${call}`, {
      errorClass: code === 401 ? "auth" : code === 403 ? "permission" : "transient",
      source: "vCenter",
      status: code,
      // The cap is known by its type (vCenter's body), not by the 500.
      ...(kind === "refuse-500" ? { serverErrorType: "UNABLE_TO_ALLOCATE_RESOURCE" } : {}),
    });
  }
  if (kind === "malformed") {
    return new HyperError(`not valid JSON: ${call}`, {
      errorClass: "malformed",
      source: "vCenter",
      status: 200,
    });
  }
  return new HyperError(`no answer to ${call}`, {
    errorClass: "unreachable",
    source: "vCenter",
    code: "UND_ERR_HEADERS_TIMEOUT",
  });
}

interface ListWorld {
  world: World;
  hosts: string[];
  folders: string[];
  folderOf: (id: string) => string;
  cap: number;
}

/**
 * `GET /api/vcenter/vm` over a generated inventory as vCenter answers it: the matches, a 500
 * past the cap, or a fault (each fault fires on the first call it targets). Records what fired.
 */
function vcenterList(w: ListWorld, faults: readonly ListFault[], fired: ListFault[]) {
  return async (filter: VmFilter): Promise<VcenterVmSummary[]> => {
    const host = filter.hosts?.[0];
    const folder = filter.folders?.[0];
    const target = folder !== undefined ? "folder" : host !== undefined ? "host" : "whole";
    const fault = faults.find(
      (f) =>
        !fired.includes(f) &&
        f.target === target &&
        (target === "whole" ||
          (target === "host"
            ? w.hosts[f.index % w.hosts.length] === host
            : w.folders[f.index % w.folders.length] === folder)),
    );
    const rows = [...w.world.guests]
      .filter(
        ([id, on]) =>
          (host === undefined || on === host) &&
          (folder === undefined || w.folderOf(id) === folder),
      )
      .map(([id]) => ({ vm: id, name: id, powerState: "POWERED_ON", cpuCount: 1, memoryMiB: 512 }));
    if (fault) fired.push(fault);
    if (fault?.kind === "cut-at-cap") return rows.slice(0, w.cap);
    if (fault) throw answerError(fault.kind, JSON.stringify(filter));
    if (rows.length > w.cap) throw answerError("refuse-500", JSON.stringify(filter));
    return rows;
  };
}

/** One listing through the real split logic, checked, as the list the adapter would make of it. */
async function readList(w: ListWorld, faults: readonly ListFault[]): Promise<ListRead> {
  const fired: ListFault[] = [];
  let listing: Awaited<ReturnType<typeof readVmListing>>;
  try {
    listing = await readVmListing({
      list: vcenterList(w, faults, fired),
      hosts: w.hosts,
      folders: async () => w.folders,
      cap: w.cap,
      parallel: 2,
    });
  } catch (error) {
    // The whole list failing for another reason than the cap: the adapter makes it a failed list.
    // (Only the read is in the try: an assertion failing below must fail the run, not the list.)
    return { key: KEY, status: "failed", reason: String(error) };
  }
  if (listing.isComplete) {
    // TRAP: docs/behaviour.md §5 — a listing called complete must hold every VM, or the sync removes live VMs.
    expect([...listing.vms.map((v) => v.vm)].sort(), "a complete listing missed VMs").toEqual(
      [...w.world.guests.keys()].sort(),
    );
    const misplaced = [...w.world.guests].filter(([id, host]) => listing.hostOf.get(id) !== host);
    expect(misplaced, "VMs listed on the wrong host").toEqual([]);
  }
  // Liveness: refusals and cut lists of the whole list or a host part are answered by the
  // split; only a lossy fault or a folder still at the cap may leave the listing incomplete.
  const count = (pred: (id: string, host: string) => boolean) =>
    [...w.world.guests].filter(([id, host]) => pred(id, host)).length;
  const splits = (host: string) =>
    count((_, on) => on === host) >= w.cap ||
    fired.some((f) => f.target === "host" && w.hosts[f.index % w.hosts.length] === host);
  const folderFull = w.hosts.some(
    (host) =>
      splits(host) &&
      w.folders.some(
        (folder) => count((id, on) => on === host && w.folderOf(id) === folder) >= w.cap,
      ),
  );
  const lossy = fired.some(
    (f) => f.target === "folder" || (f.kind !== "refuse-500" && f.kind !== "cut-at-cap"),
  );
  if (!lossy && !folderFull) {
    expect(listing.isComplete, `a read that lost nothing is complete (${listing.reason})`).toBe(
      true,
    );
  }
  if (!listing.isComplete) {
    return { key: KEY, status: "failed", reason: listing.reason ?? "incomplete" };
  }
  return { key: KEY, status: "ok", vms: listing.vms.map((v) => neutralVm(v.vm)) };
}

const listSteps = fc.array(
  fc.record({ changes: worldChanges, faults: fc.array(listFault, { maxLength: 3 }) }),
  { minLength: 1, maxLength: 3 },
);

const listScenario = fc.record({
  hosts: fc.integer({ min: 1, max: 4 }),
  folders: fc.integer({ min: 1, max: 3 }),
  cap: fc.integer({ min: 1, max: 12 }),
  vms: fc.integer({ min: 0, max: 30 }),
  steps: listSteps,
});

function listWorld(s: { hosts: number; folders: number; cap: number; vms: number }): ListWorld {
  const hosts = Array.from({ length: s.hosts }, (_, i) => `host-${i + 1}`);
  const folders = Array.from({ length: s.folders }, (_, i) => `group-v${i + 1}`);
  const world = new World(
    hosts,
    Array.from({ length: s.vms }, (_, i) => i),
    "vm-",
  );
  const folderOf = (id: string) => folders[Number(id.slice(3)) % folders.length] ?? "";
  return { world, hosts, folders, folderOf, cap: s.cap };
}

describe("property: vCenter VM list split under random caps and failures (pure)", () => {
  it("a complete listing holds every VM on its host; a refused or cut list is split, never shortened", async () => {
    await checkAsyncProperty(
      fc.asyncProperty(listScenario, async (s) => {
        const w = listWorld(s);
        const store = new Map<string, StoredVmState>();
        const lists = () => w.world.lists(inTheList);
        reconcileInMemory(store, [await readList(w, [])], lists(), new Set([KEY]));
        for (const step of s.steps) {
          w.world.apply(step.changes);
          reconcileInMemory(store, [await readList(w, step.faults)], lists(), new Set([KEY]));
        }
        const whole = await readList({ ...w, cap: VM_LIST_CAP }, []);
        expectConverges(store, w.world, [whole], inTheList);
      }),
      PURE_RUNS,
      false,
    );
  }, 600_000);

  // vCenter's own cap: inventories around 4,000 VMs. Planning 4,000 guests costs seconds, so these
  // runs check the listing itself (complete ⇒ every VM on its host; lossless ⇒ complete), fewer of them.
  it("at vCenter's own cap of 4,000 the same holds", async () => {
    const atCap = fc.record({
      hosts: fc.integer({ min: 1, max: 3 }),
      folders: fc.integer({ min: 2, max: 3 }),
      cap: fc.constant(VM_LIST_CAP),
      vms: fc.integer({ min: VM_LIST_CAP - 2, max: VM_LIST_CAP + 3 }),
      steps: listSteps,
    });
    await checkAsyncProperty(
      fc.asyncProperty(atCap, async (s) => {
        const w = listWorld(s);
        for (const step of s.steps) {
          w.world.apply(step.changes);
          await readList(w, step.faults);
        }
      }),
      Math.max(1, Math.ceil(PURE_RUNS / 50)),
      false,
    );
  }, 600_000);
});

// ------------------------------------------------ the adapter on the in-process stand-in ----------

const PATHS = [
  { method: "POST", path: "/api/session" },
  { method: "GET", path: "/api/vcenter/host" },
  { method: "GET", path: "/api/vcenter/cluster" },
  { method: "GET", path: "/api/vcenter/datacenter" },
  { method: "GET", path: "/api/vcenter/folder" },
  { method: "GET", path: "/api/vcenter/vm" },
  { method: "GET", path: "/api/vcenter/vm/*" },
  { method: "GET", path: "/api/vcenter/vm/*/guest/networking/interfaces" },
] as const;

const CALL_FAULTS = [
  "500",
  "503",
  "403",
  "404",
  "expire",
  "timeout",
  "reset",
  "truncate",
  "html",
] as const;

/** A call that goes wrong: on its Nth request, for `times` requests. */
const callFault = fc.record({
  call: fc.nat({ max: PATHS.length - 1 }),
  kind: fc.constantFrom(...CALL_FAULTS),
  nth: fc.integer({ min: 1, max: 4 }),
  times: fc.integer({ min: 1, max: 3 }),
});
type CallFault = typeof callFault extends fc.Arbitrary<infer T> ? T : never;

const HOST_STATES = ["CONNECTED", "CONNECTED", "NOT_RESPONDING", "DISCONNECTED"] as const;

const adapterStep = (hosts: number) =>
  fc.record({
    changes: worldChanges,
    hostStates: fc.array(fc.constantFrom(...HOST_STATES), { minLength: hosts, maxLength: hosts }),
    power: fc.array(
      fc.record({
        pick: fc.nat(),
        state: fc.constantFrom("POWERED_ON" as const, "POWERED_OFF" as const, "SUSPENDED" as const),
        tools: fc.boolean(),
      }),
      { maxLength: 3 },
    ),
    faults: fc.array(callFault, { maxLength: 3 }),
    cutsListAtCap: fc.boolean(),
    abortAtRequest: fc.option(fc.integer({ min: 1, max: 40 }), { nil: undefined }),
  });

const adapterScenario = fc
  .record({
    release: fc.constantFrom(...VCENTER_RELEASES),
    hosts: fc.integer({ min: 1, max: 3 }),
    cap: fc.integer({ min: 2, max: 8 }),
    vms: fc.integer({ min: 0, max: 6 }),
  })
  .chain((s) =>
    fc.record({
      release: fc.constant(s.release),
      hosts: fc.constant(s.hosts),
      cap: fc.constant(s.cap),
      vms: fc.constant(s.vms),
      steps: fc.array(adapterStep(s.hosts), { minLength: 1, maxLength: 2 }),
    }),
  );

/**
 * A VM of the world as the stand-in holds it, derived from its number: one or two NICs, SCSI or
 * NVMe disks, guest OS and hardware version of the release — or of a release newer than any we
 * know (`VMX_99`, `FUTURE_OS_64`), which must not fail the VM either.
 */
function worldVm(id: string, hostId: string, release: VcenterRelease, folderId: string): VcenterVm {
  const n = Number(id.slice(3));
  const traits = vcenterReleaseTraits(release);
  const guestOs = ["UBUNTU_64", "RHEL_9_64", ...traits.addedGuestOs.slice(0, 3), "FUTURE_OS_64"];
  const hardware = [traits.defaultHardwareVersion, "VMX_14", "VMX_99"];
  const nics = Array.from({ length: 1 + (n % 2) }, (_, k) => vcenterNic(k, vcenterMac(n * 4 + k)));
  const guestInterfaces = nics.map((nic, k) =>
    nicInterface(nic, `10.${k}.${(n >> 8) & 0xff}.${n & 0xff}`, { upperCaseMac: n % 3 === 0 }),
  );
  if (n % 4 === 1) guestInterfaces.push(extraInterface("docker0", n % 250));
  return vcenterVm({
    id,
    name: `vm${n}`,
    hostId,
    folderId,
    guestOs: guestOs[n % guestOs.length] ?? "OTHER_64",
    hardwareVersion: hardware[n % hardware.length] ?? "VMX_19",
    nics,
    disks: [vcenterDisk(`vm${n}`, 0, 20, "ds1", n % 3 === 2 ? "NVME" : "SCSI")],
    guestInterfaces,
    isToolsRunning: n % 5 !== 4,
  });
}

/** A datacenter with a two-host cluster and, with three hosts, a standalone one; two VM folders. */
function emptyVcenter(hosts: number, release: VcenterRelease, cap: number): InProcessVcenter {
  const dc = "datacenter-1";
  return createInProcessVcenter({
    release,
    vmListCap: cap,
    model: {
      datacenters: [{ id: dc, name: "dc1" }],
      clusters: [
        { id: "domain-c1", name: "cluster1", datacenterId: dc, haEnabled: true, drsEnabled: true },
      ],
      hosts: Array.from({ length: hosts }, (_, i) => ({
        id: `host-${i + 1}`,
        name: `esx${i + 1}.lab`,
        datacenterId: dc,
        clusterId: i < 2 ? "domain-c1" : null,
        connectionState: "CONNECTED" as const,
      })),
      folders: [
        { id: "group-v1", name: "prod", datacenterId: dc },
        { id: "group-v2", name: "dev", datacenterId: dc },
      ],
      vms: [],
    },
  });
}

/** Makes the stand-in's inventory the world's: VMs added, removed and moved (vMotion). */
function follow(model: VcenterModel, world: World, release: VcenterRelease): void {
  for (const vm of model.vms) if (!world.guests.has(vm.id)) model.removeVm(vm.id);
  for (const [id, host] of world.guests) {
    const vm = model.vm(id);
    const folder = `group-v${(Number(id.slice(3)) % 2) + 1}`;
    if (!vm) model.addVm(worldVm(id, host, release, folder));
    else if (vm.hostId !== host) model.moveVm(id, host);
  }
}

function vcenterClient(vc: InProcessVcenter, cap: number): VcenterClient {
  return createVcenterClient({
    http: {
      connectionId: "vc-property",
      baseUrl: vc.url,
      // The in-process stand-in's transport is what hyper-http sends through, as undici would.
      dispatcher: vc.transport as unknown as Dispatcher,
      retry: { attempts: 2, baseDelayMs: 0, maxDelayMs: 0 },
    },
    credentials: { username: USER, password: DEFAULT_VCENTER_PASSWORD },
    vmListCap: cap,
  });
}

function installCallFault(vc: InProcessVcenter, fault: CallFault, expiries: CallFault[]): void {
  const { method, path } = PATHS[fault.call] ?? PATHS[0];
  const options = { method, nth: fault.nth, times: fault.times };
  if (fault.kind === "expire") expiries.push(fault);
  else if (fault.kind === "timeout") vc.faults.hang(path, options);
  else if (fault.kind === "reset") vc.faults.reset(path, options);
  else if (fault.kind === "truncate") vc.faults.truncate(path, options);
  else if (fault.kind === "html") vc.faults.html(path, options);
  else {
    vc.faults.fail(path, Number(fault.kind), {
      ...options,
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ error_type: "ERROR", messages: [] }),
    });
  }
}

/**
 * One sync's read with this step's faults: sessions expire for real at chosen requests, the read
 * may be aborted part-way. Returns the snapshot, or undefined when the read threw (login failed,
 * aborted): then the sync fails as a whole and plans nothing.
 */
async function faultyRead(
  vc: InProcessVcenter,
  client: VcenterClient,
  step: { faults: CallFault[]; abortAtRequest: number | undefined },
): Promise<SourceSnapshot | undefined> {
  const expiries: CallFault[] = [];
  for (const fault of step.faults) installCallFault(vc, fault, expiries);
  const sessionsBefore = vc.sessions.length;
  const requestsBefore = vc.requests.length;
  const abort = new AbortController();
  const seen = new Map<CallFault, number>();
  let count = 0;
  vc.onRequest = (entry) => {
    count += 1;
    if (count === step.abortAtRequest) abort.abort(new Error("sync cancelled"));
    for (const fault of expiries) {
      const target = PATHS[fault.call] ?? PATHS[0];
      const pattern = new RegExp(`^${target.path.replaceAll("*", "[^/]+")}$`);
      if (entry.method !== target.method || !pattern.test(entry.path)) continue;
      seen.set(fault, (seen.get(fault) ?? 0) + 1);
      // An expired session, for real: its token answers 401 from this request on.
      if (seen.get(fault) === fault.nth) vc.expireAllSessions();
    }
  };
  try {
    return await readVcenterInventory(client, { signal: abort.signal, parallelVms: 3 });
  } catch {
    return undefined;
  } finally {
    vc.onRequest = undefined;
    vc.faults.clear();
    // TRAP: docs/behaviour.md §5 — every session is deleted (DELETE /api/session), whatever failed part-way.
    // Only a login answer cut in transit leaves one the client cannot name; it times out.
    const unnamed = vc.requests
      .slice(requestsBefore)
      .filter((r) => r.method === "POST" && r.status === 201 && r.fault?.startsWith("truncate"));
    const leftOpen = vc.sessions.slice(sessionsBefore).filter((s) => !s.closed && !s.expired);
    expect(leftOpen.length, "vCenter sessions left open after a sync").toBe(unnamed.length);
  }
}

/** What a read that came back ok must say about the stand-in's inventory. */
function expectTrueToModel(vc: InProcessVcenter, snapshot: SourceSnapshot): void {
  const list = snapshot.lists[0];
  for (const node of snapshot.nodes ?? []) {
    const host = vc.model.host(node.externalId);
    // Offline is not gone: a host that is not responding is a node marked offline.
    expect(node.isOnline, node.externalId).toBe(host?.connectionState === "CONNECTED");
  }
  if (list?.status !== "ok") return;
  // TRAP: docs/behaviour.md §5 — a list called ok holds every VM of the vCenter and nothing else.
  expect(list.vms.map((vm) => vm.externalId).sort(), "an ok list holds every VM").toEqual(
    vc.model.vms.map((vm) => vm.id).sort(),
  );
  for (const read of list.vms) {
    const vm = vc.model.vm(read.externalId);
    if (!vm) continue;
    // No half-written guest: NICs, disks, guest OS and place all come from this read.
    expect(read.nics.map((nic) => nic.mac)).toEqual(vm.nics.map((nic) => nic.mac));
    expect(read.disks.map((disk) => disk.busType)).toEqual(
      vm.disks.map((d) => d.bus.toLowerCase()),
    );
    // docs/behaviour.md §6.3: the raw code is always kept; a code we have no name for is shown as given.
    expect(read.guestOsCode, "the raw guest OS code is kept").toBe(vm.guestOs);
    if (vm.guestOs === "FUTURE_OS_64") {
      expect(read.guestOs, "an unknown guest OS is kept as given").toBe(vm.guestOs);
    }
    if (vm.guestOs === "RHEL_9_64") {
      expect(read.guestOs, "a known guest OS reads as its name").toBe(
        "Red Hat Enterprise Linux 9 (64-bit)",
      );
    }
    expect(read.location.hostName).toBe(vc.model.host(vm.hostId)?.name);
    const silent = vm.powerState !== "POWERED_ON" || !vm.isToolsRunning;
    // Tools not running (503) is normal: it costs the live addresses, never the VM.
    if (silent) expect(read.ipsFromGuestAreLive, read.externalId).toBe(false);
  }
}

describe("property: vCenter adapter under random inventories and failures (pure)", () => {
  it("removes only after a complete read, keeps offline hosts' VMs, and deletes every session", async () => {
    await checkAsyncProperty(
      fc.asyncProperty(adapterScenario, async (s) => {
        const vc = emptyVcenter(s.hosts, s.release, s.cap);
        const hosts = vc.model.hosts.map((h) => h.id);
        const world = new World(
          hosts,
          Array.from({ length: s.vms }, (_, i) => i),
          "vm-",
        );
        const client = vcenterClient(vc, s.cap);
        const store = new Map<string, StoredVmState>();
        const sync = async (step: Parameters<typeof faultyRead>[2]) => {
          follow(vc.model, world, s.release);
          const snapshot = await faultyRead(vc, client, step);
          if (!snapshot) return;
          expectTrueToModel(vc, snapshot);
          reconcileInMemory(store, snapshot.lists, world.lists(inTheList), new Set([KEY]));
        };
        await sync({ faults: [], abortAtRequest: undefined });
        for (const step of s.steps) {
          world.apply(step.changes);
          follow(vc.model, world, s.release);
          step.hostStates.forEach((state, i) => {
            vc.model.setHostState(hosts[i] ?? "", state);
          });
          const vms = vc.model.vms;
          for (const p of step.power) {
            const vm = vms[p.pick % Math.max(1, vms.length)];
            if (!vm) continue;
            vc.model.setPower(vm.id, p.state);
            vc.model.setTools(vm.id, p.state === "POWERED_ON" && p.tools);
          }
          vc.settings.cutsListAtCap = step.cutsListAtCap;
          await sync(step);
          vc.settings.cutsListAtCap = false;
        }
        // Faults cleared, one clean whole read: the store converges on the vCenter.
        vc.settings.vmListCap = VM_LIST_CAP;
        const clean = await faultyRead(vc, vcenterClient(vc, VM_LIST_CAP), {
          faults: [],
          abortAtRequest: undefined,
        });
        expect(clean?.lists[0]?.status, "a clean read is ok").toBe("ok");
        if (clean) {
          expectTrueToModel(vc, clean);
          expectConverges(store, world, clean.lists, inTheList);
        }
      }),
      PURE_RUNS,
      false,
    );
  }, 600_000);
});

// ---------------------------------------------------------------- end to end ----------------

const db = useFileDatabase();

const E2E_FAULTS = [
  "none",
  "list-503",
  "session-expires",
  "truncate",
  "html",
  "info-500",
  "guest-503",
  "reset",
  "login-503",
  "cut-at-cap",
] as const;

const e2eScenario = fc.record({
  seed: fc.integer({ min: 1, max: 1_000_000 }),
  release: fc.constantFrom(...VCENTER_RELEASES),
  vms: fc.integer({ min: 0, max: 24 }),
  hostsPerCluster: fc.integer({ min: 1, max: 3 }),
  cap: fc.integer({ min: 3, max: 30 }),
  removeEvery: fc.integer({ min: 2, max: 9 }),
  move: fc.boolean(),
  offlineHost: fc.option(fc.nat({ max: 5 }), { nil: undefined }),
  fault: fc.constantFrom(...E2E_FAULTS),
  nth: fc.integer({ min: 1, max: 3 }),
});

describe("property: vCenter stand-in → adapter → runSync", () => {
  it("keeps the safety rules, deletes every session and converges once the faults clear", async () => {
    registerSecret(DEFAULT_VCENTER_PASSWORD);
    await checkEndToEnd(db.prisma, e2eScenario, {
      source: "VCENTER",
      start: (sc) => {
        const model = generateVcenter({
          datacenters: 1,
          clustersPerDc: 1,
          hostsPerCluster: sc.hostsPerCluster,
          vms: sc.vms,
          seed: sc.seed,
          release: sc.release,
        });
        // A host-and-folder part at the cap cannot be read (the pure runs cover that): every clean
        // sync must be whole, so the cap stays above the fullest part even after a VM moves in.
        const cells = new Map<string, number>();
        for (const vm of model.vms) {
          const cell = `${vm.hostId}/${vm.folderId}`;
          cells.set(cell, (cells.get(cell) ?? 0) + 1);
        }
        const cap = Math.max(sc.cap, ...cells.values(), 0) + 2;
        return createVcenterStandin({ model, release: sc.release, vmListCap: cap });
      },
      connect: (standin, http) =>
        createVcenterClient({
          http,
          credentials: { username: USER, password: DEFAULT_VCENTER_PASSWORD },
          vmListCap: standin.settings.vmListCap,
        }),
      steps: (sc, standin, client) => {
        const { model } = standin;
        const expiry = midReadExpiry(standin);
        return {
          read: () =>
            readVcenterInventory(client, {
              parallelVms: 4,
              onProgress: (event) => expiry.fire(event.type === "listing"),
            }),
          // TRAP: docs/behaviour.md §5 — no session is ever left behind: DELETE /api/session after every sync.
          afterEachSync: () => expect(standin.openSessions, "vCenter sessions left open").toBe(0),
          change: () => {
            model.vms.forEach((vm, i) => {
              if (i % sc.removeEvery === 0) model.removeVm(vm.id);
            });
            const mover = model.vms[0];
            const target = model.hosts.find((h) => h.id !== mover?.hostId);
            if (sc.move && mover && target) model.moveVm(mover.id, target.id);
            const offline =
              sc.offlineHost === undefined
                ? undefined
                : model.hosts[sc.offlineHost % model.hosts.length];
            if (offline) model.setHostState(offline.id, "NOT_RESPONDING");
            expiry.arm(sc.fault === "session-expires");
            installE2eFault(standin, sc.fault, sc.nth);
          },
          // Offline is not gone: a VM still in the vCenter, on any host, is never removed.
          isStillThere: (id) => model.vm(id) !== undefined,
          clearFaults: () => {
            standin.faults.clear();
            standin.settings.cutsListAtCap = false;
          },
          expected: () => model.vms.map((vm) => vm.id),
        };
      },
    });
  }, 300_000);
});

function installE2eFault(
  standin: Awaited<ReturnType<typeof createVcenterStandin>>,
  kind: (typeof E2E_FAULTS)[number],
  nth: number,
) {
  if (kind === "list-503") installListFault(standin.faults, "/api/vcenter/vm", 503, nth);
  else if (kind === "truncate" || kind === "html" || kind === "reset")
    installListFault(standin.faults, "/api/vcenter/vm", kind, nth);
  else if (kind === "info-500") standin.faults.fail("/api/vcenter/vm/*", 500, { nth });
  else if (kind === "guest-503")
    standin.faults.fail("/api/vcenter/vm/*/guest/networking/interfaces", 503, { times: 50 });
  else if (kind === "login-503") standin.faults.fail("/api/session", 503, { method: "POST" });
  else if (kind === "cut-at-cap") standin.settings.cutsListAtCap = true;
}

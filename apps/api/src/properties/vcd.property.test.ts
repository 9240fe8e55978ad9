// Cloud Director under random inventories, page caps and failures (docs/behaviour.md §4): the real paging
// (listVmPages) over generated pages feeds the planner in the pure runs; a few runs go stand-in →
// client → adapter → runSync on PGlite, and every session is logged out.
import type { ListRead } from "@hyperlens/shared";
import {
  createVcdStandin,
  DEFAULT_VCD_PASSWORD,
  type DirectorModel,
  generateDirector,
} from "@hyperlens/standins/testing";
import type { StoredVmState } from "@hyperlens/sync";
import {
  createVcdClient,
  listVmPages,
  readVcdInventory,
  type VcdVmRecord,
  type VmQueryPage,
} from "@hyperlens/vcd";
import fc from "fast-check";
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

const KEY = "vms";

function record(id: string): VcdVmRecord {
  return {
    href: `https://vcd.example/api/vApp/vm-${id}`,
    urn: id,
    name: `vm-${id}`,
    status: "POWERED_ON",
    cpuCount: 1,
    memoryMiB: 1024,
    guestOs: null,
    vappName: null,
    vappHref: null,
    vdcName: null,
    vdcHref: null,
    orgName: null,
    orgHref: null,
    isDeployed: null,
    ipAddress: null,
    vcenterHref: null,
    vcenterName: null,
    moref: null,
    hostName: null,
    datastoreName: null,
    networkName: null,
    hardwareVersion: null,
    storageProfileName: null,
    totalStorageAllocatedMb: null,
  } as VcdVmRecord;
}

/** How one read of the query service goes wrong (or not). */
const readFaults = fc.record({
  cap: fc.integer({ min: 1, max: 30 }),
  templates: fc.integer({ min: 0, max: 3 }),
  failPage: fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }),
  emptyPage: fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }),
  shortPage: fc.option(
    fc.record({ page: fc.integer({ min: 1, max: 6 }), by: fc.integer({ min: 1, max: 29 }) }),
    {
      nil: undefined,
    },
  ),
  appearsMidRead: fc.boolean(),
});
type ReadFaults = typeof readFaults extends fc.Arbitrary<infer T> ? T : never;

/** One read through the real paging code over pages a Director with these faults would answer. */
async function readList(world: World, faults: ReadFaults | null, cleanCap = 25): Promise<ListRead> {
  const ids = world.in(KEY);
  const records = [...ids.map((id) => ({ id, isTemplate: false }))];
  for (let t = 0; t < (faults?.templates ?? 0); t++)
    records.push({ id: `t${t}`, isTemplate: true });
  let total = records.length;
  const cap = faults?.cap ?? cleanCap;
  let offset = 0;
  const readPage = async (page: number): Promise<VmQueryPage> => {
    if (faults?.failPage === page) throw new Error(`page ${page}: HTTP 500`);
    if (faults?.appearsMidRead && page === 2) {
      // A VM created while the list is read: Director reports the new total from now on.
      const id = world.add(0);
      records.unshift({ id, isTemplate: false });
      total += 1;
    }
    let size = cap;
    if (faults?.shortPage?.page === page) size = Math.max(0, cap - faults.shortPage.by);
    if (faults?.emptyPage === page) size = 0;
    const slice = records.slice(offset, offset + size);
    offset += slice.length;
    return {
      page,
      pageSize: cap,
      total,
      recordCount: slice.length,
      recordHrefs: slice.map((r) => `href-${r.id}`),
      vms: slice.filter((r) => !r.isTemplate).map((r) => record(r.id)),
      hasNextPage: offset < total,
    };
  };
  let listing: Awaited<ReturnType<typeof listVmPages>>;
  try {
    listing = await listVmPages(readPage);
  } catch (error) {
    return { key: KEY, status: "failed", reason: String(error) };
  }
  // Only the read is in the try: an assertion failing below must fail the run, not the list.
  const seen = new Set(listing.vms.map((vm) => vm.urn));
  if (listing.isComplete) {
    // TRAP: docs/behaviour.md §4 — a read called complete must hold every VM, or the next step removes live VMs.
    expect([...seen].sort(), "a complete listing missed VMs").toEqual(world.in(KEY).sort());
  }
  // Short pages lose nothing: only a failed or empty page, or a VM appearing, may leave it incomplete.
  const losesRecords =
    faults !== null &&
    (faults.failPage !== undefined ||
      faults.emptyPage !== undefined ||
      faults.appearsMidRead ||
      // A page shortened by the whole cap is an empty page.
      (faults.shortPage !== undefined && faults.shortPage.by >= faults.cap));
  if (!losesRecords)
    expect(listing.isComplete, "a read that lost nothing must be complete").toBe(true);
  if (!listing.isComplete)
    return { key: KEY, status: "failed", reason: listing.reason ?? "incomplete" };
  return { key: KEY, status: "ok", vms: listing.vms.map((vm) => neutralVm(vm.urn)) };
}

const scenario = fc.record({
  cleanCap: fc.integer({ min: 1, max: 30 }),
  initial: fc.array(fc.constant(0), { maxLength: 60 }),
  steps: fc.array(
    fc.record({ changes: worldChanges, faults: fc.option(readFaults, { nil: null }) }),
    {
      minLength: 1,
      maxLength: 3,
    },
  ),
});

describe("property: Director sync under random paging and failures (pure)", () => {
  it("removes only after a complete read, and a clean read with any page cap is complete", async () => {
    await checkAsyncProperty(
      fc.asyncProperty(scenario, async ({ cleanCap, initial, steps }) => {
        const world = new World([KEY], initial);
        const store = new Map<string, StoredVmState>();
        reconcileInMemory(
          store,
          [await readList(world, null, cleanCap)],
          new Map(world.guests),
          new Set([KEY]),
        );
        for (const s of steps) {
          world.apply(s.changes);
          const list = await readList(world, s.faults);
          reconcileInMemory(store, [list], new Map(world.guests), new Set([KEY]));
        }
        expectConverges(store, world, [await readList(world, null, cleanCap)]);
      }),
      PURE_RUNS,
      false,
    );
  });
});

// ---------------------------------------------------------------- end to end ----------------

const db = useFileDatabase();

const FAULTS = [
  "none",
  "page-500",
  "session-expires",
  "truncate",
  "html",
  "section-500",
  "reset",
  "login-503",
] as const;

const e2eScenario = fc.record({
  seed: fc.integer({ min: 1, max: 1_000_000 }),
  vms: fc.integer({ min: 0, max: 24 }),
  cap: fc.integer({ min: 2, max: 30 }),
  removeEvery: fc.integer({ min: 2, max: 9 }),
  fault: fc.constantFrom(...FAULTS),
  nth: fc.integer({ min: 1, max: 3 }),
});

/** The org the inventory user of an end-to-end run belongs to. */
const orgOf = (model: DirectorModel) => model.orgs[0]?.name ?? "org1";

describe("property: Director stand-in → adapter → runSync", () => {
  it("keeps the safety rules, leaves no session open and converges once the faults clear", async () => {
    registerSecret(DEFAULT_VCD_PASSWORD);
    await checkEndToEnd(db.prisma, e2eScenario, {
      source: "VCD",
      start: (sc) => {
        const model = generateDirector({
          orgs: 1,
          vdcsPerOrg: 1,
          vms: sc.vms,
          edgeGateways: 1,
          seed: sc.seed,
        });
        return createVcdStandin({
          model,
          maxPageSize: sc.cap,
          users: [
            {
              user: "inventory",
              org: orgOf(model),
              password: DEFAULT_VCD_PASSWORD,
              role: "tenant",
            },
          ],
        });
      },
      connect: (standin, http) =>
        createVcdClient({
          http,
          credentials: {
            username: `inventory@${orgOf(standin.model)}`,
            password: DEFAULT_VCD_PASSWORD,
          },
        }),
      steps: (sc, standin, client) => {
        const { model } = standin;
        const expiry = midReadExpiry(standin);
        return {
          read: () => {
            let pages = 0;
            return readVcdInventory(client, {
              parallelVms: 4,
              onProgress: (event) => expiry.fire(event.type === "pages" && ++pages === sc.nth),
            });
          },
          // TRAP: docs/behaviour.md §4 — no session is ever left behind, whatever failed.
          afterEachSync: () => expect(standin.openSessions, "Director sessions left open").toBe(0),
          change: () => {
            model.vms.forEach((vm, i) => {
              if (i % sc.removeEvery === 0) model.removeVm(vm.id);
              else if (i % 3 === 1) model.renameVm(vm.id, `${vm.name}-renamed`);
            });
            expiry.arm(sc.fault === "session-expires");
            installFault(standin, sc.fault, sc.nth);
          },
          isStillThere: (id) => model.vms.some((vm) => `urn:vcloud:vm:${vm.id}` === id),
          clearFaults: () => standin.faults.clear(),
          expected: () =>
            model.vms
              .filter((vm) => !model.vapp(vm.vappId)?.template)
              .map((vm) => `urn:vcloud:vm:${vm.id}`),
        };
      },
    });
  }, 300_000);
});

function installFault(
  standin: Awaited<ReturnType<typeof createVcdStandin>>,
  kind: (typeof FAULTS)[number],
  nth: number,
) {
  if (kind === "page-500") installListFault(standin.faults, "/api/query", 500, nth);
  else if (kind === "truncate" || kind === "html" || kind === "reset")
    installListFault(standin.faults, "/api/query", kind, nth);
  else if (kind === "section-500")
    standin.faults.fail("/api/vApp/**/networkConnectionSection/", 500, { nth });
  else if (kind === "login-503")
    standin.faults.fail("/cloudapi/1.0.0/sessions", 503, { method: "POST" });
}

// The complete VM list of a vCenter, whatever its size. `GET /api/vcenter/vm` has no paging: it
// answers at most 4,000 VMs and refuses with UNABLE_TO_ALLOCATE_RESOURCE past that (500 by the
// 7.0.3 OpenAPI file, 400 by VMware's vAPI runtimes: it is known by its type). The list
// is therefore also read per host (which tells each VM's host, absent from VM.Info), and when the
// whole list is full or refused, the host parts ARE the list; a host part that is itself full is
// split by folder.
import { isHyperError } from "@hyperlens/hyper-http";
import type { VcenterVmSummary } from "./parse/vm-list.ts";
import type { VmFilter } from "./vm-filter.ts";

/** The largest VM list vCenter 7 and 8 answer in one call. */
export const VM_LIST_CAP = 4000;

/** Every VM of the vCenter and the host each one was listed on. */
export interface VmListing {
  vms: VcenterVmSummary[];
  /** VM moref → host moref, from the per-host lists. */
  hostOf: Map<string, string>;
  /** `whole`: one call held every VM; `parts`: the list is the union of the host/folder parts. */
  strategy: "whole" | "parts";
  /** Calls made to the VM list. */
  calls: number;
  /** false when a part failed or stayed over the cap: the caller must then remove nothing. */
  isComplete: boolean;
  reason?: string;
}

/** What {@link readVmListing} needs: one filtered list call, the hosts, and (lazily) the VM folders. */
export interface VmListingDeps {
  list(filter: VmFilter): Promise<VcenterVmSummary[]>;
  hosts: readonly string[];
  folders(): Promise<string[]>;
  /** Default {@link VM_LIST_CAP}. */
  cap?: number;
  /** Parts read at once (default 4); hyper-http still caps per connection. */
  parallel?: number;
}

class PartFailed extends Error {}

/** The error type vCenter refuses a list over the cap with. */
const CAP_ERROR_TYPE = "UNABLE_TO_ALLOCATE_RESOURCE";
/** The message vCenter sends with it, should a release spell the type otherwise. */
const CAP_MESSAGE = /too many virtual machines/i;

/**
 * Whether an error answer to the VM list is the cap refusing it, answered by splitting the list.
 * Known by its type or message, whatever the status; any other failure (a 503 among them) is not.
 */
export function isVmListRefusal(answer: {
  status?: number;
  serverErrorType?: string;
  serverMessage?: string;
}): boolean {
  if (answer.status === undefined) return false;
  return answer.serverErrorType === CAP_ERROR_TYPE || CAP_MESSAGE.test(answer.serverMessage ?? "");
}

// TRAP: docs/behaviour.md §5 — a refusal taken for a failure reads no VM past 4,000, a failure taken for a
// refusal is never retried: only the recognised refusal splits.
const isRefusal = (error: unknown): boolean => isHyperError(error) && isVmListRefusal(error);

function describeFilter(filter: VmFilter): string {
  const parts = Object.entries(filter).map(([k, v]) => `${k}=${(v as string[]).join(",")}`);
  return parts.length ? parts.join(" ") : "all VMs";
}

async function inParallel<T>(items: readonly T[], limit: number, fn: (item: T) => Promise<void>) {
  let next = 0;
  let failure: unknown;
  const worker = async () => {
    while (next < items.length && failure === undefined) {
      const item = items[next++] as T;
      try {
        await fn(item);
      } catch (error) {
        failure ??= error;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.max(1, Math.min(limit, items.length)) }, worker));
  if (failure !== undefined) throw failure;
}

/**
 * Reads the whole list once, then every host's part. The whole list counts only when it came back
 * under the cap; otherwise the union of the parts is the list. Complete only if every part came
 * back: one failed or over-full part makes the listing incomplete, never shorter.
 */
export async function readVmListing(deps: VmListingDeps): Promise<VmListing> {
  const cap = deps.cap ?? VM_LIST_CAP;
  let calls = 0;
  let folders: Promise<string[]> | undefined;
  const list = async (filter: VmFilter) => {
    calls++;
    return deps.list(filter);
  };

  const incomplete = (reason: string, strategy: VmListing["strategy"]): VmListing => ({
    vms: [],
    hostOf: new Map(),
    strategy,
    calls,
    isComplete: false,
    reason,
  });

  let whole: VcenterVmSummary[] | null = null;
  try {
    const rows = await list({});
    // TRAP: docs/behaviour.md §5 — a list AT the cap may be cut short; only one below it is known whole.
    whole = rows.length < cap ? rows : null;
  } catch (error) {
    if (!isRefusal(error)) throw error;
  }

  // Reads one filtered part; over the cap it splits by folder, and over the cap again it gives up.
  const readPart = async (filter: VmFilter): Promise<VcenterVmSummary[]> => {
    try {
      const rows = await list(filter);
      if (rows.length < cap) return rows;
    } catch (error) {
      if (!isRefusal(error)) {
        throw new PartFailed(`${describeFilter(filter)}: ${(error as Error).message}`);
      }
    }
    folders ??= deps.folders();
    const byFolder: VcenterVmSummary[] = [];
    for (const folder of await folders) {
      const sub = { ...filter, folders: [folder] };
      let rows: VcenterVmSummary[];
      try {
        rows = await list(sub);
      } catch (error) {
        throw new PartFailed(`${describeFilter(sub)}: ${(error as Error).message}`);
      }
      if (rows.length >= cap) {
        throw new PartFailed(
          `${describeFilter(sub)}: still ${rows.length} VMs or more, vCenter's limit per call`,
        );
      }
      byFolder.push(...rows);
    }
    return byFolder;
  };

  const strategy = whole === null ? "parts" : "whole";
  if (whole === null && deps.hosts.length === 0) {
    // TRAP: docs/behaviour.md §5 — a refused list with no host to split by is unknown, not empty.
    return incomplete(
      "the VM list was refused or full and there is no host to split it by",
      strategy,
    );
  }
  const hostOf = new Map<string, string>();
  const fromParts = new Map<string, VcenterVmSummary>();
  try {
    await inParallel(deps.hosts, deps.parallel ?? 4, async (host) => {
      for (const vm of await readPart({ hosts: [host] })) {
        // A VM moved by vMotion while we read shows up on two hosts; the first one wins.
        if (!hostOf.has(vm.vm)) hostOf.set(vm.vm, host);
        if (!fromParts.has(vm.vm)) fromParts.set(vm.vm, vm);
      }
    });
  } catch (error) {
    // TRAP: docs/behaviour.md §5 — a VM list part that failed is a failed list, never a shorter one.
    if (error instanceof PartFailed) {
      return incomplete(`a part of the VM list failed (${error.message})`, strategy);
    }
    throw error;
  }
  if (whole !== null) return { vms: whole, hostOf, strategy, calls, isComplete: true };
  return { vms: [...fromParts.values()], hostOf, strategy, calls, isComplete: true };
}

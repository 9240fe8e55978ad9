// Reads each VM's NIC and disk sections as soon as its query page arrives, so the request pool
// works on sections while later pages are still being fetched. How many VMs are read at once is
// bounded here; how many requests are on the wire at once stays hyper-http's per-connection cap,
// which counts page and section requests alike because both go through the same client.
import { createSemaphore, errorMessage } from "@hyperlens/shared";
import type { VcdClient } from "../client.ts";
import type { VcdDisk } from "../parse/disks.ts";
import type { VcdNetworkConnectionSection } from "../parse/network-connections.ts";
import type { VcdVmRecord } from "../parse/vm-records.ts";

/** What was read about one VM besides its query record. */
export interface VmSections {
  section: VcdNetworkConnectionSection;
  disks: VcdDisk[];
}

/** The section reads of one VM list read. */
export interface VmSectionReads {
  /** Starts reading the sections of VMs not started yet (a VM is read once, by href). */
  start(records: readonly VcdVmRecord[]): void;
  /** The first failure, naming the VM, once one happened. */
  readonly failure: string | undefined;
  /**
   * Waits for every started read (nothing is left on the wire afterwards) and returns the
   * sections by href; undefined when a read failed or the reads were stopped.
   */
  settle(): Promise<Map<string, VmSections> | undefined>;
  /** Starts nothing more; reads already on the wire finish. */
  stop(): void;
}

/** Options of {@link startVmSectionReads}. */
export interface VmSectionReadOptions {
  /** VMs whose sections are read at once. */
  parallelVms: number;
  signal?: AbortSignal;
  /** Called after each VM read, with the VMs done and started so far. */
  onRead?: (done: number, started: number) => void;
}

/** Creates the section reads of one VM list; nothing is read until {@link VmSectionReads.start}. */
export function startVmSectionReads(
  client: VcdClient,
  options: VmSectionReadOptions,
): VmSectionReads {
  const slots = createSemaphore(options.parallelVms);
  const sections = new Map<string, VmSections>();
  const reads = new Map<string, Promise<void>>();
  let failure: string | undefined;
  let isStopped = false;
  let done = 0;

  async function readOne(record: VcdVmRecord): Promise<void> {
    let release: (() => void) | undefined;
    try {
      release = await slots.acquire(options.signal);
      if (isStopped || failure !== undefined) return;
      const [section, disks] = await Promise.all([
        client.networkConnectionSection(record.href),
        client.disks(record.href),
      ]);
      sections.set(record.href, { section, disks });
      done++;
      options.onRead?.(done, reads.size);
    } catch (error) {
      // One VM whose sections could not be read fails the whole list, as with Proxmox: storing it
      // without NICs and disks would erase what we knew, and leaving it out would remove it.
      failure ??= `VM ${record.name} (${record.urn}): ${errorMessage(error)}`;
    } finally {
      release?.();
    }
  }

  return {
    start(records) {
      if (isStopped) return;
      for (const record of records) {
        if (!reads.has(record.href)) reads.set(record.href, readOne(record));
      }
    },
    get failure() {
      return failure;
    },
    async settle() {
      // Reads started while waiting are waited for too.
      for (let count = -1; count !== reads.size; ) {
        count = reads.size;
        await Promise.all(reads.values());
      }
      return failure === undefined && !isStopped ? sections : undefined;
    },
    stop() {
      isStopped = true;
    },
  };
}

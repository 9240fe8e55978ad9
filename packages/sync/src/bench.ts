// Reconcile benchmark: 5,000 guests with NICs, IPs and disks on in-memory PGlite (or the
// PostgreSQL of DATABASE_URL). Prints figures; never asserts times.
import { pathToFileURL } from "node:url";
import { createTestDatabase } from "@hyperlens/db/testing";
import type { SourceSnapshot } from "@hyperlens/shared";
import { createConnection, makeVm, okList, syncSnapshot } from "./testing/builders.ts";

/** One benchmark step's figures. */
export interface BenchFigure {
  step: string;
  ms: number;
  rowsWritten: number;
}

function snapshotOf(guests: number, lists: number, changedEvery = 0): SourceSnapshot {
  const vms = Array.from({ length: guests }, (_, i) => {
    const vm = makeVm(1000 + i);
    return changedEvery && i % changedEvery === 0 ? { ...vm, state: "STOPPED" as const } : vm;
  });
  return {
    lists: Array.from({ length: lists }, (_, l) =>
      okList(
        `pve${l + 1}/qemu`,
        vms.filter((_, i) => i % lists === l),
      ),
    ),
  };
}

/** Runs first sync, unchanged sync, and a 1 %-changed sync of `guests` guests; prints and returns the figures. */
export async function benchReconcile(guests = 5_000): Promise<BenchFigure[]> {
  const db = await createTestDatabase();
  try {
    const connectionId = await createConnection(db.prisma, "bench");
    const figures: BenchFigure[] = [];
    const step = async (name: string, snapshot: SourceSnapshot) => {
      const started = performance.now();
      const result = await syncSnapshot(db.prisma, connectionId, snapshot);
      if (result.outcome === "FAILED") throw new Error(result.message);
      figures.push({
        step: name,
        ms: Math.round(performance.now() - started),
        rowsWritten: result.counts.rowsWritten,
      });
    };
    await step(`first sync (${guests} guests)`, snapshotOf(guests, 5));
    await step("second sync, unchanged", snapshotOf(guests, 5));
    await step("third sync, 1 % changed", snapshotOf(guests, 5, 100));
    console.log(`reconcile benchmark on ${db.kind}`);
    console.table(figures);
    return figures;
  } finally {
    await db.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  await benchReconcile(Number(process.env.BENCH_GUESTS ?? 5_000));
}

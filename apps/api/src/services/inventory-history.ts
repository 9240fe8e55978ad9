// The Servers page's history charts (docs/behaviour.md §9.50): per source, the VMs, containers and
// running guests of the connections a viewer sees, over time, from the samples runs left.
import type { Prisma, PrismaClient } from "@hyperlens/db";
import { CONNECTION_KINDS, type ConnectionKind } from "@hyperlens/shared";
import { ValidationError } from "../errors.ts";

/** A source's figures at one instant. */
export interface HistoryPoint {
  at: Date;
  vms: number;
  containers: number;
  running: number;
}

/** One source's figures over the range, oldest first. */
export interface HistorySeries {
  source: ConnectionKind;
  points: HistoryPoint[];
}

/** What one sample holds. */
export interface StoredSample extends HistoryPoint {
  connectionId: string;
}

/** Points per source at most: a chart a few hundred pixels wide shows no more. */
export const MAX_POINTS = 500;

/** The longest range asked for at once. */
const MAX_RANGE_MS = 400 * 86_400_000;

/** Refuses a range a chart cannot be drawn for, naming the argument at fault. */
export function checkHistoryRange(from: Date, to: Date): void {
  if (to.getTime() <= from.getTime()) {
    throw new ValidationError("The end of the range must be after its start.", "to");
  }
  if (to.getTime() - from.getTime() > MAX_RANGE_MS) {
    throw new ValidationError("The range may cover 400 days at most.", "from");
  }
}

/**
 * Each source's sum over its connections after every sample: a connection counts with its latest
 * sample so far (its one before `from` opens the range), so a source's figure never drops because
 * another of its connections synced. Samples at one instant make one point.
 */
export function shapeHistory(
  connections: readonly { id: string; kind: ConnectionKind }[],
  before: readonly StoredSample[],
  samples: readonly StoredSample[],
  from: Date,
  to: Date,
  maxPoints = MAX_POINTS,
): HistorySeries[] {
  const kindOf = new Map(connections.map((c) => [c.id, c.kind]));
  return CONNECTION_KINDS.filter((kind) => connections.some((c) => c.kind === kind)).map(
    (source) => {
      const latest = new Map<string, StoredSample>();
      const sum = (at: Date): HistoryPoint => {
        const point = { at, vms: 0, containers: 0, running: 0 };
        for (const s of latest.values()) {
          point.vms += s.vms;
          point.containers += s.containers;
          point.running += s.running;
        }
        return point;
      };
      const points: HistoryPoint[] = [];
      for (const s of before)
        if (kindOf.get(s.connectionId) === source) latest.set(s.connectionId, s);
      if (latest.size) points.push(sum(from));
      for (const s of samples) {
        if (kindOf.get(s.connectionId) !== source) continue;
        latest.set(s.connectionId, s);
        if (points.at(-1)?.at.getTime() === s.at.getTime()) points.pop();
        points.push(sum(s.at));
      }
      return { source, points: thin(points, from, to, maxPoints) };
    },
  );
}

/** At most `maxPoints`: the last point of each of that many equal slices of the range. */
function thin(points: HistoryPoint[], from: Date, to: Date, maxPoints: number): HistoryPoint[] {
  if (points.length <= maxPoints) return points;
  const width = (to.getTime() - from.getTime()) / maxPoints;
  const slice = (p: HistoryPoint) =>
    Math.min(maxPoints - 1, Math.floor((p.at.getTime() - from.getTime()) / width));
  return points.filter((p, i) => {
    const next = points[i + 1];
    return !next || slice(next) !== slice(p);
  });
}

const SAMPLE_SELECT = {
  connectionId: true,
  at: true,
  vms: true,
  containers: true,
  running: true,
} as const;

/** The history of the connections `visible` lets through, of one source or all. */
export async function readInventoryHistory(
  prisma: PrismaClient,
  visible: Prisma.ConnectionWhereInput,
  range: { from: Date; to: Date; source?: ConnectionKind | null },
): Promise<HistorySeries[]> {
  checkHistoryRange(range.from, range.to);
  const connections = await prisma.connection.findMany({
    where: { ...visible, ...(range.source ? { kind: range.source } : {}) },
    select: { id: true, kind: true },
  });
  const ids = connections.map((c) => c.id);
  if (!ids.length) return [];
  // Each connection's last sample before the range: what it held when the range opens.
  const before = await prisma.$queryRaw<StoredSample[]>`
    SELECT DISTINCT ON ("connectionId") "connectionId", at, vms, containers, running
    FROM inventory_samples WHERE "connectionId" = ANY(${ids}::uuid[]) AND at < ${range.from}
    ORDER BY "connectionId", at DESC`;
  const samples = await prisma.inventorySample.findMany({
    where: { connectionId: { in: ids }, at: { gte: range.from, lte: range.to } },
    select: SAMPLE_SELECT,
    orderBy: [{ at: "asc" }, { id: "asc" }],
  });
  return shapeHistory(connections, before, samples, range.from, range.to);
}

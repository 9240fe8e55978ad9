// Small helpers for the batched raw SQL the engine writes through Prisma ($executeRawUnsafe with
// positional parameters works the same on the PGlite and node-postgres adapters).

/** The raw-SQL part of a Prisma client or interactive transaction the engine writes through. */
export interface RawSql {
  $executeRawUnsafe(query: string, ...values: unknown[]): PromiseLike<number>;
  $queryRawUnsafe<T = unknown>(query: string, ...values: unknown[]): PromiseLike<T>;
}

/** PostgreSQL refuses more than 65,535 bind parameters per statement; stay well under. */
export const MAX_PARAMS = 60_000;

/** Splits items into chunks of at most `size`. */
export function chunk<T>(items: T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let i = 0; i < items.length; i += size) chunks.push(items.slice(i, i + size));
  return chunks;
}

/** Collects positional parameters and hands out their cast placeholders. */
export class Params {
  readonly values: unknown[] = [];

  /** Adds a value and returns its placeholder, e.g. `$7::jsonb`. */
  add(value: unknown, cast: string): string {
    this.values.push(value === undefined ? null : value);
    return `$${this.values.length}::${cast}`;
  }
}

/** A bigint column value: sent as text so neither adapter rounds or rejects it. */
export function bigintParam(value: number | bigint | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === "bigint" ? value.toString() : String(Math.trunc(value));
}

/** A text[] column value in PostgreSQL array-literal form. */
export function textArrayParam(values: string[]): string {
  return `{${values.map((v) => `"${v.replaceAll("\\", "\\\\").replaceAll('"', '\\"')}"`).join(",")}}`;
}

/** One `INSERT … VALUES` per chunk of rows, each chunk under the parameter limit. */
export async function insertRows<T>(
  db: RawSql,
  table: string,
  columns: { name: string; cast: string; value: (row: T) => unknown }[],
  rows: T[],
  suffix = "",
): Promise<number> {
  let written = 0;
  for (const part of chunk(rows, Math.floor(MAX_PARAMS / columns.length))) {
    const params = new Params();
    const tuples = part.map(
      (row) => `(${columns.map((c) => params.add(c.value(row), c.cast)).join(",")})`,
    );
    const names = columns.map((c) => `"${c.name}"`).join(",");
    written += await db.$executeRawUnsafe(
      `INSERT INTO ${table} (${names}) VALUES ${tuples.join(",")} ${suffix}`,
      ...params.values,
    );
  }
  return written;
}

/** `IN (…)` over uuids, built into `params`. */
export function uuidList(params: Params, ids: string[]): string {
  return `(${ids.map((id) => params.add(id, "uuid")).join(",")})`;
}

// Small helpers for the batched raw SQL the engine writes in raw transactions (positional
// parameters with explicit casts work the same on PGlite and node-postgres).
import type { RawSql } from "@hyperlens/db";

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

/** A column written from a JSON record set: its cast and how to read it from a row. */
export interface Column<T> {
  name: string;
  /** The column's SQL type; "jsonb" values are passed as objects, the rest as scalars. */
  cast: string;
  value: (row: T) => unknown;
}

/**
 * Rows as ONE jsonb parameter, unpacked by `jsonb_to_recordset`: far faster than thousands of
 * bind parameters on PGlite, and never near the 65,535-parameter limit.
 */
export function recordset<T>(
  params: Params,
  columns: Column<T>[],
  rows: T[],
  alias = "r",
): { select: string; from: string } {
  const records = rows.map((row) =>
    Object.fromEntries(columns.map((c) => [c.name, c.value(row) ?? null])),
  );
  const placeholder = params.add(JSON.stringify(records), "jsonb");
  const types = columns
    .map((c) => `"${c.name}" ${c.cast === "jsonb" ? "jsonb" : "text"}`)
    .join(",");
  return {
    select: columns.map((c) => `${alias}."${c.name}"::${c.cast}`).join(","),
    from: `jsonb_to_recordset(${placeholder}) AS ${alias}(${types})`,
  };
}

/** Inserts rows in one statement per chunk; returns rows written. */
export async function insertRows<T>(
  db: RawSql,
  table: string,
  columns: Column<T>[],
  rows: T[],
  suffix = "",
): Promise<number> {
  let written = 0;
  for (const part of chunk(rows, 5_000)) {
    const params = new Params();
    const { select, from } = recordset(params, columns, part);
    const names = columns.map((c) => `"${c.name}"`).join(",");
    written += await db.$executeRawUnsafe(
      `INSERT INTO ${table} (${names}) SELECT ${select} FROM ${from} ${suffix}`,
      ...params.values,
    );
  }
  return written;
}

/** `IN (…)` over uuids, built into `params`. */
export function uuidList(params: Params, ids: string[]): string {
  return `(${ids.map((id) => params.add(id, "uuid")).join(",")})`;
}

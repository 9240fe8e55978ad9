// Reads rows by id with a Prisma selection in ONE SQL statement on the driver: the row, its
// relations and theirs come back as a single JSON document, shaped as Prisma's findMany returns
// them. Prisma compiles each query anew and reads each relation with a statement of its own: a
// page of the unified list took three statements and 8 ms more of the server's CPU that way.
// Prisma's own relationJoins (one statement too) was measured beside it by the list bench
// (bench/list-read-strategies.ts, PostgreSQL, 50,000 VMs, 2026-12-05, two runs): 4.8–7.0 ms of CPU
// per page read against the reader's 1.3–2.2 ms, so a request would cost 1.22–1.25× the reader's
// 16–19 ms. Over the 1.2× the reader has to beat to be kept; measure again on a Prisma upgrade.
// Selections using anything not translated here (filters other than equality, counts, nested
// paging) are declined, and the caller asks Prisma. Every relation in the schema refers to an
// `id` column, which this module relies on.
import { getDatamodel } from "./generated/pothos-types.ts";
import type { PrismaClient } from "./generated/prisma/client.ts";
import { rawQuery } from "./raw-transaction.ts";

type ModelName = keyof typeof TABLES;

/** The table of each model (`@@map` in schema.prisma). */
export const TABLES = {
  User: "users",
  Session: "sessions",
  ApiToken: "api_tokens",
  LoginThrottle: "login_throttles",
  Connection: "connections",
  ConnectionSecret: "connection_secrets",
  SyncLease: "sync_leases",
  HypervisorNode: "hypervisor_nodes",
  VirtualMachine: "virtual_machines",
  Nic: "nics",
  IpAddress: "ip_addresses",
  Disk: "disks",
  EdgeGateway: "edge_gateways",
  SyncRun: "sync_runs",
  VmEvent: "vm_events",
  AuditLog: "audit_logs",
} as const;

interface Field {
  name: string;
  type: string;
  kind: string;
  isList: boolean;
  relationName?: string;
  relationFromFields?: string[];
}

const models = getDatamodel().datamodel.models as unknown as Record<
  string,
  { fields: Field[] } | undefined
>;

/** json_build_object takes at most 100 arguments: 50 keys. */
const MAX_KEYS = 50;
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Scalar types read back from JSON, with their SQL cast when compared in a `where`. */
const SCALAR_CASTS: Record<string, string | undefined> = {
  String: "text",
  Boolean: "boolean",
  Int: "int4",
  BigInt: "int8",
  DateTime: undefined,
  Json: undefined,
};

/** A selection this reader does not translate. */
class Declined extends Error {}

/** Turns a JSON value of one row back into what Prisma would have returned. */
type Decode = (row: Record<string, unknown>) => void;

class Statement {
  readonly values: unknown[] = [];
  #aliases = 0;

  param(value: unknown, cast: string): string {
    this.values.push(value);
    return `$${this.values.length}::${cast}`;
  }

  alias(): string {
    return `t${this.#aliases++}`;
  }
}

function fieldsOf(model: string): Field[] {
  const fields = models[model]?.fields;
  if (!fields || !(model in TABLES)) throw new Declined();
  return fields;
}

function fieldOf(model: string, name: string): Field {
  const field = fieldsOf(model).find((f) => f.name === name);
  if (!field || !IDENTIFIER.test(name)) throw new Declined();
  return field;
}

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === "object" && value !== null && !Array.isArray(value);

/** The fields a `select` or `include` argument asks for, with each relation's own arguments. */
function requestedFields(model: string, args: Record<string, unknown>): [Field, unknown][] {
  const { select, include } = args;
  if (select !== undefined && include !== undefined) throw new Declined();
  const requested: [Field, unknown][] = [];
  if (select === undefined) {
    for (const field of fieldsOf(model)) if (field.kind !== "object") requested.push([field, true]);
  }
  const listed = select ?? include ?? {};
  if (!isObject(listed)) throw new Declined();
  for (const [name, value] of Object.entries(listed)) {
    if (value === false || value === undefined) continue;
    const field = fieldOf(model, name);
    if (field.kind !== "object" && value !== true) throw new Declined();
    if (select === undefined && field.kind !== "object") continue;
    requested.push([field, value]);
  }
  if (requested.length > MAX_KEYS) throw new Declined();
  return requested;
}

function castOf(field: Field): string {
  if (field.isList) throw new Declined();
  if (field.kind === "enum") return `"${field.type}"`;
  const cast = SCALAR_CASTS[field.type];
  if (!cast) throw new Declined();
  return cast;
}

/** Lists come back as JSON arrays as they are, so only lists of strings, numbers and enums do. */
function assertReadable(field: Field): void {
  if (field.kind !== "scalar") return;
  if (!(field.type in SCALAR_CASTS)) throw new Declined();
  if (field.isList && (field.type === "BigInt" || field.type === "DateTime")) throw new Declined();
}

/** `where` of a relation: equality on its own scalar columns only. */
function conditions(model: string, where: unknown, alias: string, statement: Statement): string[] {
  if (where === undefined) return [];
  if (!isObject(where)) throw new Declined();
  return Object.entries(where).map(([name, value]) => {
    const field = fieldOf(model, name);
    if (field.kind === "object") throw new Declined();
    if (value === null) return `${alias}."${name}" IS NULL`;
    if (!["string", "number", "boolean"].includes(typeof value)) throw new Declined();
    return `${alias}."${name}" = ${statement.param(value, castOf(field))}`;
  });
}

function ordering(model: string, orderBy: unknown, alias: string): string[] {
  if (orderBy === undefined) return [];
  const clauses = Array.isArray(orderBy) ? orderBy : [orderBy];
  return clauses.flatMap((clause) => {
    if (!isObject(clause)) throw new Declined();
    return Object.entries(clause).map(([name, direction]) => {
      if (fieldOf(model, name).kind === "object") throw new Declined();
      if (direction !== "asc" && direction !== "desc") throw new Declined();
      return `${alias}."${name}" ${direction.toUpperCase()}`;
    });
  });
}

/** The field's value in the row's JSON; 64-bit integers as text, so none is rounded. */
function valueExpression(field: Field, alias: string): string {
  const column = `${alias}."${field.name}"`;
  return field.type === "BigInt" ? `${column}::text` : column;
}

function decoderOf(field: Field): ((value: unknown) => unknown) | undefined {
  if (field.type === "BigInt") return (value) => (value === null ? null : BigInt(value as string));
  if (field.type === "DateTime")
    return (value) => (value === null ? null : new Date(value as string));
  return undefined;
}

/** The other side of a relation: its model's field that holds the foreign key, if any. */
function backReference(model: string, field: Field): Field {
  const back = fieldsOf(field.type).find(
    (f) => f.relationName === field.relationName && f.type === model && f !== field,
  );
  if (!back) throw new Declined();
  return back;
}

/** A JSON expression of one `model` row under `alias`, and how to decode it. */
function rowExpression(
  model: string,
  args: Record<string, unknown>,
  alias: string,
  statement: Statement,
): { sql: string; decode: Decode } {
  const pairs: string[] = [];
  const decoders: [string, (value: unknown) => unknown][] = [];
  for (const [field, value] of requestedFields(model, args)) {
    if (field.kind !== "object") {
      assertReadable(field);
      pairs.push(`'${field.name}', ${valueExpression(field, alias)}`);
      const decode = decoderOf(field);
      if (decode) decoders.push([field.name, decode]);
      continue;
    }
    const relation = relationExpression(
      model,
      field,
      value === true ? {} : value,
      alias,
      statement,
    );
    pairs.push(`'${field.name}', ${relation.sql}`);
    decoders.push([field.name, relation.decode]);
  }
  const decode: Decode = (row) => {
    for (const [name, decodeValue] of decoders) row[name] = decodeValue(row[name]);
  };
  return { sql: `json_build_object(${pairs.join(", ")})`, decode };
}

function relationExpression(
  model: string,
  field: Field,
  args: unknown,
  parent: string,
  statement: Statement,
): { sql: string; decode: (value: unknown) => unknown } {
  if (!isObject(args)) throw new Declined();
  const { select, include, where, orderBy, take, ...rest } = args;
  if (Object.keys(rest).length > 0) throw new Declined();
  const target = field.type as ModelName;
  const alias = statement.alias();
  const row = rowExpression(target, { select, include }, alias, statement);
  const from = `${TABLES[target]} ${alias}`;
  if (!field.isList) {
    // To-one: this row holds the key (the connection of a guest).
    const [key] = field.relationFromFields ?? [];
    fieldOf(target, "id");
    if (!key || where !== undefined || orderBy !== undefined || take !== undefined)
      throw new Declined();
    return {
      sql: `(SELECT ${row.sql} FROM ${from} WHERE ${alias}."id" = ${parent}."${key}")`,
      decode: (value) => {
        if (value !== null) row.decode(value as Record<string, unknown>);
        return value;
      },
    };
  }
  const [key] = backReference(model, field).relationFromFields ?? [];
  if (!key) throw new Declined();
  if (take !== undefined && (!Number.isInteger(take) || (take as number) < 0)) throw new Declined();
  const filters = [
    `${alias}."${key}" = ${parent}."id"`,
    ...conditions(target, where, alias, statement),
  ];
  const order = ordering(target, orderBy, alias);
  const sql = [
    `SELECT ${row.sql} FROM ${from} WHERE ${filters.join(" AND ")}`,
    order.length ? `ORDER BY ${order.join(", ")}` : "",
    take === undefined ? "" : `LIMIT ${take as number}`,
  ].join(" ");
  return {
    sql: `array_to_json(ARRAY(${sql}))`,
    decode: (value) => {
      for (const item of value as Record<string, unknown>[]) row.decode(item);
      return value;
    },
  };
}

/** Reads rows of one model by id with one selection; see rowsByIdReader. */
export interface RowsByIdReader {
  /**
   * The rows with these ids, in the order of `ids` (ids not found are left out), as
   * `findMany(selection)` returns them. `prisma` must come from openDatabase.
   */
  read<Row>(prisma: PrismaClient, ids: readonly string[]): Promise<Row[]>;
}

/**
 * A reader of `model` rows with this Prisma selection (`select` or `include`, as findMany takes
 * them), or undefined when the selection uses anything this module does not translate.
 */
export function rowsByIdReader(
  model: ModelName,
  selection: Record<string, unknown>,
): RowsByIdReader | undefined {
  const { select, include, ...rest } = selection;
  if (Object.keys(rest).length > 0) return undefined;
  const statement = new Statement();
  const alias = statement.alias();
  let row: ReturnType<typeof rowExpression>;
  try {
    fieldOf(model, "id");
    row = rowExpression(model, { select, include }, alias, statement);
  } catch (error) {
    if (error instanceof Declined) return undefined;
    throw error;
  }
  const wanted = `$${statement.values.length + 1}::jsonb`;
  const sql = `SELECT array_to_json(ARRAY(SELECT ${row.sql}
    FROM jsonb_array_elements_text(${wanted}) WITH ORDINALITY AS wanted(id, position)
    JOIN ${TABLES[model]} ${alias} ON ${alias}."id" = wanted.id::uuid ORDER BY wanted.position))::text AS "rows"`;
  return {
    read: async <Row>(prisma: PrismaClient, ids: readonly string[]) => {
      if (ids.length === 0) return [];
      const values = [...statement.values, JSON.stringify(ids)];
      const [result] = await rawQuery<{ rows: string }>(prisma, sql, values);
      const rows = JSON.parse(result?.rows ?? "[]") as Record<string, unknown>[];
      for (const found of rows) row.decode(found);
      return rows as Row[];
    },
  };
}

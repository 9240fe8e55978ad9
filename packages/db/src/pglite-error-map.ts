// pglite-prisma-adapter 0.6.1 reports every database error as { kind: "postgres" }, so a unique
// violation never becomes P2002. Map the SQLSTATEs the way @prisma/adapter-pg does.
import { DriverAdapterError } from "@prisma/driver-adapter-utils";

interface PgDatabaseError {
  code?: string;
  message: string;
  detail?: string;
  column?: string;
  constraint?: string;
}

function fieldsFromDetail(detail: string | undefined): { fields: string[] } | undefined {
  const fields = detail
    ?.match(/Key \(([^)]+)\)/)
    ?.at(1)
    ?.split(", ");
  return fields ? { fields } : undefined;
}

function mapError(error: PgDatabaseError) {
  const base = { originalCode: error.code, originalMessage: error.message };
  switch (error.code) {
    case "23505":
      return {
        ...base,
        kind: "UniqueConstraintViolation",
        constraint: fieldsFromDetail(error.detail),
      };
    case "23502":
      return {
        ...base,
        kind: "NullConstraintViolation",
        constraint: fieldsFromDetail(error.detail),
      };
    case "23503":
      return {
        ...base,
        kind: "ForeignKeyConstraintViolation",
        constraint: error.column
          ? { fields: [error.column] }
          : error.constraint
            ? { index: error.constraint }
            : undefined,
      };
    case "22001":
      return { ...base, kind: "LengthMismatch", column: error.column };
    case "22003":
      return { ...base, kind: "ValueOutOfRange", cause: error.message };
    case "40001":
      return { ...base, kind: "TransactionWriteConflict" };
    default:
      return undefined;
  }
}

const patched = new WeakSet<object>();

/** Patches the prototype that owns `onError` on a connected PGlite adapter, once. */
export function patchPgliteErrorMapping(adapter: object): void {
  let proto: object | null = Object.getPrototypeOf(adapter);
  while (proto && !Object.hasOwn(proto, "onError")) proto = Object.getPrototypeOf(proto);
  if (!proto || patched.has(proto)) return;
  const owner = proto as { onError(error: unknown): never };
  const original = owner.onError;
  owner.onError = function onError(this: unknown, error: unknown): never {
    const mapped =
      error && typeof error === "object" ? mapError(error as PgDatabaseError) : undefined;
    if (mapped)
      throw new DriverAdapterError(mapped as ConstructorParameters<typeof DriverAdapterError>[0]);
    return original.call(this, error);
  };
  patched.add(proto);
}

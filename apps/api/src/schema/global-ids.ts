// Global ids name a row by its UUID; one that decodes to anything else is refused as bad input
// before a resolver hands it to the database.
import { PothosValidationError } from "@pothos/core";
import { decodeGlobalID, encodeGlobalID } from "@pothos/plugin-relay";
import { type GraphQLResolveInfo, isInterfaceType, isObjectType } from "graphql";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Pothos's decoder, plus: the id part must be a UUID, as every node's primary key is. */
export function decodeUuidGlobalID(globalID: string): { typename: string; id: string } {
  const decoded = decodeGlobalID(globalID);
  // TRAP: issue 8 — "Connection:x" passed to a @db.Uuid column is a database error, masked as INTERNAL_SERVER_ERROR.
  if (!UUID.test(decoded.id)) throw new PothosValidationError(`Invalid global ID: ${globalID}`);
  return decoded;
}

/**
 * What every prismaNode shares: its global id is its `id` column, and node(id)/nodes(ids) answer
 * null for an id that names no row — deleted, never created, or a row of another type.
 */
// TRAP: issue 20 — without `nullable` Pothos loads nodes with findUniqueOrThrow: a missing row is
// Prisma's "No record was found", masked as INTERNAL_SERVER_ERROR, and it fails all of nodes(ids).
export const NODE_LOOKUP = { id: { field: "id" }, nullable: true } as const;

/**
 * Refuses, as malformed, a decoded id whose type is no object type implementing Node: node(id)
 * could not load it, and Pothos would answer "… has not been implemented" without a code.
 */
export function requireNodeTypes(
  info: GraphQLResolveInfo,
  ids: readonly { typename: string; id: string }[],
): void {
  const node = info.schema.getType("Node");
  for (const { typename, id } of ids) {
    const type = info.schema.getType(typename);
    if (!isInterfaceType(node) || !isObjectType(type) || !info.schema.isSubType(node, type))
      throw new PothosValidationError(`Invalid global ID: ${encodeGlobalID(typename, id)}`);
  }
}

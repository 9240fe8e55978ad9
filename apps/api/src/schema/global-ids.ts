// Global ids name a row by its UUID; one that decodes to anything else is refused as bad input
// before a resolver hands it to the database.
import { PothosValidationError } from "@pothos/core";
import { decodeGlobalID } from "@pothos/plugin-relay";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Pothos's decoder, plus: the id part must be a UUID, as every node's primary key is. */
export function decodeUuidGlobalID(globalID: string): { typename: string; id: string } {
  const decoded = decodeGlobalID(globalID);
  // TRAP: issue 8 — "Connection:x" passed to a @db.Uuid column is a database error, masked as INTERNAL_SERVER_ERROR.
  if (!UUID.test(decoded.id)) throw new PothosValidationError(`Invalid global ID: ${globalID}`);
  return decoded;
}

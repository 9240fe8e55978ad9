// Codes for the errors graphql-js and graphql-armor raise without one, so every error a client sees
// carries a stable `extensions.code` (docs/api.md).
import { ERROR_CODES } from "@hyperlens/shared";
import { GraphQLError } from "graphql";

/**
 * A request-level GraphQL error without a code (no path: it is about the request, not a field) is
 * bad input: a variable of the wrong type, a missing required variable, a request without the CSRF
 * header.
 */
export function withInputErrorCode(error: GraphQLError): GraphQLError {
  if (error.extensions.code !== undefined || error.path !== undefined) return error;
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    originalError: error.originalError,
    extensions: { ...error.extensions, code: ERROR_CODES.BAD_USER_INPUT },
  });
}

/**
 * graphql-armor's `onReject` hook: its refusals (tokens, depth, aliases, cost) carry no code of
 * their own; they get QUERY_TOO_COMPLEX.
 */
export function tagTooComplex(_context: unknown, error: GraphQLError): void {
  (error.extensions as Record<string, unknown>).code = ERROR_CODES.QUERY_TOO_COMPLEX;
}

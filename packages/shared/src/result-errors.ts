// How a failed Test or sync names its failure: an `errorClass` the result records and the web app
// explains. (GraphQL errors and their codes are the API's: apps/api/src/errors.ts.)

/**
 * The `errorClass` values a Test or sync result carries for failures on this side of the
 * hypervisor door (the door's own are unreachable, tls, auth, permission, not_found, transient,
 * malformed and config). The web app has text of its own for each, saying what to do.
 */
export const RESULT_ERROR_CLASSES = {
  /**
   * The stored connection secret cannot be opened with the configured keys (sealed with a key no
   * longer configured, or altered): enter it again, or configure the previous key and rotate.
   */
  SECRET_UNREADABLE: "secret_unreadable",
} as const;

/** One result error class of {@link RESULT_ERROR_CLASSES}. */
export type ResultErrorClass = (typeof RESULT_ERROR_CLASSES)[keyof typeof RESULT_ERROR_CLASSES];

/**
 * A failure that names its own result class. The hypervisor door's HyperError and the API's
 * SecretUnreadableError are such; a sync or Test records any other failure as "internal".
 */
export class ClassifiedError extends Error {
  constructor(
    message: string,
    readonly errorClass: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}

/** The `errorClass` a failed sync or Test records for `error`. */
export function errorClassOf(error: unknown): string {
  return error instanceof ClassifiedError ? error.errorClass : "internal";
}

/**
 * The stable `extensions.code` values of GraphQL errors, shared by the API and the web app.
 * Failures a user must act on field by field are typed results instead (see docs/api.md).
 */
export const ERROR_CODES = {
  /** No valid session or API token. */
  UNAUTHENTICATED: "UNAUTHENTICATED",
  /** Signed in, but without the capability the field needs. */
  FORBIDDEN: "FORBIDDEN",
  /** The input failed validation. */
  BAD_USER_INPUT: "BAD_USER_INPUT",
  /** The object does not exist (or is not visible). */
  NOT_FOUND: "NOT_FOUND",
  /** Too many attempts; retry later. */
  RATE_LIMITED: "RATE_LIMITED",
  /** The query exceeds a depth, alias, token or cost limit. */
  QUERY_TOO_COMPLEX: "QUERY_TOO_COMPLEX",
  /** The server is shutting down and takes no new work; retry on another replica or later. */
  SHUTTING_DOWN: "SHUTTING_DOWN",
  /** Anything unexpected; the details are in the server log under the request id. */
  INTERNAL_SERVER_ERROR: "INTERNAL_SERVER_ERROR",
} as const;

/** One error code. */
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

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

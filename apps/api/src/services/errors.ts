import type { SecretDecryptError } from "@hyperlens/db";
import { RESULT_ERROR_CLASSES } from "@hyperlens/shared";

/** One broken rule and the input field it concerns. */
export interface FieldProblem {
  field?: string;
  message: string;
}

/**
 * A rule the input broke, with the field it concerns, for the UI to show beside that field.
 * `problems` lists every broken rule when there are several; the first is the message.
 */
export class ValidationError extends Error {
  override name = "ValidationError";
  readonly problems: FieldProblem[];
  constructor(
    message: string,
    readonly field?: string,
    problems?: FieldProblem[],
  ) {
    super(message);
    this.problems = problems ?? [{ field, message }];
  }

  /** One error carrying several problems. */
  static of(problems: FieldProblem[]): ValidationError {
    const first = problems[0] ?? { message: "The input is not valid." };
    return new ValidationError(first.message, first.field, problems);
  }
}

/** The object to act on does not exist. */
export class NotFoundError extends Error {
  override name = "NotFoundError";
}

/** The server is shutting down and takes no new syncs; another replica (or a restart) will. */
export class ShuttingDownError extends Error {
  override name = "ShuttingDownError";
}

/**
 * A connection's stored secret that no configured key opens. Its message says why and what to
 * do; Test and sync report it under its own error class, never as an internal error.
 */
export class SecretUnreadableError extends Error {
  override name = "SecretUnreadableError";
  readonly errorClass = RESULT_ERROR_CLASSES.SECRET_UNREADABLE;

  /** The administrator's version of a decrypt failure (which names at most a key id). */
  static from(error: SecretDecryptError): SecretUnreadableError {
    const reenter = "Edit the connection and enter the secret again";
    const message = error.missingKeyId
      ? `The stored secret cannot be opened with the configured keys: it was sealed with key ${error.missingKeyId}, which is not configured. ` +
        `${reenter}, or start Hyperlens with that previous key in HYPERLENS_SECRET_KEY_PREVIOUS and run \`hyperlens secrets rotate\`.`
      : `The stored secret cannot be opened with the configured keys: it was altered or belongs to another connection. ${reenter}.`;
    return new SecretUnreadableError(message, { cause: error });
  }
}

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

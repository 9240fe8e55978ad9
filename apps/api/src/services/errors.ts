/** A rule the input broke, with the field it concerns, for the UI to show beside that field. */
export class ValidationError extends Error {
  override name = "ValidationError";
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
  }
}

/** The object to act on does not exist. */
export class NotFoundError extends Error {
  override name = "NotFoundError";
}

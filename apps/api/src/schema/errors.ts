// Typed failures a user acts on; the errors plugin turns them into result unions.
import { type FieldProblem, ValidationError } from "../services/errors.ts";
import { builder } from "./builder.ts";

/** Wrong user name or password: one error for both, so neither is revealed. */
export class InvalidCredentialsError extends Error {
  override name = "InvalidCredentialsError";
  constructor() {
    super("The user name or password is not correct.");
  }
}

/** Too many failed sign-ins. */
export class RateLimitedError extends Error {
  override name = "RateLimitedError";
  constructor(readonly retryAt: Date) {
    super("Too many failed sign-in attempts. Try again later.");
  }
}

const ErrorInterface = builder.interfaceRef<Error>("Error").implement({
  description: "A failure the user can act on.",
  fields: (t) => ({ message: t.exposeString("message") }),
});

const FieldProblemRef = builder.objectRef<FieldProblem>("FieldProblem").implement({
  fields: (t) => ({
    field: t.exposeString("field", { nullable: true }),
    message: t.exposeString("message"),
  }),
});

builder.objectType(ValidationError, {
  name: "ValidationError",
  description:
    "The input broke a rule; `field` names the input field of the first problem, `problems` lists them all.",
  interfaces: [ErrorInterface],
  isTypeOf: (value) => value instanceof ValidationError,
  fields: (t) => ({
    field: t.exposeString("field", { nullable: true }),
    problems: t.field({ type: [FieldProblemRef], resolve: (error) => error.problems }),
  }),
});

builder.objectType(InvalidCredentialsError, {
  name: "InvalidCredentialsError",
  interfaces: [ErrorInterface],
  isTypeOf: (value) => value instanceof InvalidCredentialsError,
  fields: () => ({}),
});

builder.objectType(RateLimitedError, {
  name: "RateLimitedError",
  interfaces: [ErrorInterface],
  isTypeOf: (value) => value instanceof RateLimitedError,
  fields: (t) => ({ retryAt: t.expose("retryAt", { type: "DateTime" }) }),
});

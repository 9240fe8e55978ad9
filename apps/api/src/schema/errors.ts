// The errors a client branches on with typed data (apps/api/src/errors.ts), as GraphQL types: a
// field that lists one in `errors: { types }` answers it as a member of its result union.
import {
  type FieldProblem,
  InvalidCredentialsError,
  InvalidTwoFactorCodeError,
  RateLimitedError,
  SignInExpiredError,
  TwoFactorRequired,
  ValidationError,
} from "../errors.ts";
import { builder } from "./builder.ts";

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

builder.objectType(TwoFactorRequired, {
  name: "TwoFactorRequired",
  description:
    "The password held and the account has two-factor on: no session yet. Send `challenge` to `completeSignIn` with a code before `expiresAt`.",
  interfaces: [ErrorInterface],
  isTypeOf: (value) => value instanceof TwoFactorRequired,
  fields: (t) => ({
    challenge: t.exposeString("challenge"),
    expiresAt: t.expose("expiresAt", { type: "DateTime" }),
  }),
});

builder.objectType(InvalidTwoFactorCodeError, {
  name: "InvalidTwoFactorCodeError",
  description: "The code (or recovery code) is wrong or was already used.",
  interfaces: [ErrorInterface],
  isTypeOf: (value) => value instanceof InvalidTwoFactorCodeError,
  fields: () => ({}),
});

builder.objectType(SignInExpiredError, {
  name: "SignInExpiredError",
  description: "The sign-in challenge is unknown, expired or already used: sign in again.",
  interfaces: [ErrorInterface],
  isTypeOf: (value) => value instanceof SignInExpiredError,
  fields: () => ({}),
});

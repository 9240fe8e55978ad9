// The one error model of the API (docs/api.md "Errors"). Three parts, all in this file:
// 1. ERROR_CODES: every `extensions.code` a client can see, with what it means.
// 2. HyperlensError and its subclasses: errors we raise on purpose. Each already is a GraphQLError
//    carrying its code, so resolvers, services and plugins throw them as they are; the ones a
//    client branches on with typed data (ValidationError, InvalidCredentialsError,
//    RateLimitedError) are also Pothos result types (schema/errors.ts).
// 3. maskError: what a client sees of any error. Ours pass through, graphql-js's and the query
//    limits' own get a code, everything else becomes INTERNAL_SERVER_ERROR and is logged.
// A Test or sync failure is not a GraphQL error but a result with an `errorClass`: the
// hypervisor door's HyperError names its own, SecretUnreadableError below names its own, and any
// other failure is recorded as "internal" (ClassifiedError in @hyperlens/shared).
import type { SecretDecryptError } from "@hyperlens/db";
import { ClassifiedError, RESULT_ERROR_CLASSES } from "@hyperlens/shared";
import { PothosValidationError } from "@pothos/core";
import { GraphQLError } from "graphql";

/** The stable `extensions.code` values; nothing answers with a code missing here. */
export const ERROR_CODES = {
  /** No valid session or API token (or a wrong user name or password). */
  UNAUTHENTICATED: "UNAUTHENTICATED",
  /** Signed in, but without the capability the field needs. */
  FORBIDDEN: "FORBIDDEN",
  /** The input failed validation; `field` (and `problems`) say where when a field is to blame. */
  BAD_USER_INPUT: "BAD_USER_INPUT",
  /** The object does not exist (or is not visible). */
  NOT_FOUND: "NOT_FOUND",
  /** Too many attempts; retry later. */
  RATE_LIMITED: "RATE_LIMITED",
  /**
   * The session's password was reset by an administrator: until the user chooses a new one
   * (`changeOwnPassword`), it may only ask `viewer` and call `changeOwnPassword` or `signOut`.
   */
  PASSWORD_CHANGE_REQUIRED: "PASSWORD_CHANGE_REQUIRED",
  /**
   * The administrator requires two-factor and this session has not enrolled yet: it may only
   * enrol (`beginTwoFactorEnrolment`, `confirmTwoFactor`), read `viewer` and sign out.
   */
  TWO_FACTOR_ENROLMENT_REQUIRED: "TWO_FACTOR_ENROLMENT_REQUIRED",
  /** The query exceeds a depth, alias, token or cost limit. */
  QUERY_TOO_COMPLEX: "QUERY_TOO_COMPLEX",
  /** The server is shutting down and takes no new work; retry on another replica or later. */
  SHUTTING_DOWN: "SHUTTING_DOWN",
  /**
   * A sign-in provider (a directory) cannot answer now: down, slow, an untrusted certificate or a
   * refused service account. The reason is in the server log for the administrator.
   */
  PROVIDER_UNAVAILABLE: "PROVIDER_UNAVAILABLE",
  /** Anything unexpected; the details are in the server log under the request id. */
  INTERNAL_SERVER_ERROR: "INTERNAL_SERVER_ERROR",
  /**
   * The HTTP request itself cannot be served (not JSON, headers too large, wrong method or host).
   * graphql-yoga answers some requests with this code and the four below on its own.
   */
  BAD_REQUEST: "BAD_REQUEST",
  /** graphql-yoga: the request body is larger than the server accepts. */
  REQUEST_ENTITY_TOO_LARGE: "REQUEST_ENTITY_TOO_LARGE",
  /** graphql-yoga: the query is not valid GraphQL syntax. */
  GRAPHQL_PARSE_FAILED: "GRAPHQL_PARSE_FAILED",
  /** graphql-yoga: the query does not fit the schema. */
  GRAPHQL_VALIDATION_FAILED: "GRAPHQL_VALIDATION_FAILED",
  /** graphql-yoga: which operation to run is unclear (several, and no or an unknown name). */
  OPERATION_RESOLUTION_FAILURE: "OPERATION_RESOLUTION_FAILURE",
} as const;

/** One error code. */
export type ErrorCode = (typeof ERROR_CODES)[keyof typeof ERROR_CODES];

/** An error raised on purpose: its message is written for a person and shown as it is. */
export class HyperlensError extends GraphQLError {
  override name = "HyperlensError";
  constructor(message: string, code: ErrorCode, extensions: Record<string, unknown> = {}) {
    super(message, { extensions: { ...extensions, code } });
  }

  /** The code every client sees. */
  get code(): ErrorCode {
    return this.extensions.code as ErrorCode;
  }
}

/** No valid session or API token. */
export class NotAuthenticatedError extends HyperlensError {
  override name = "NotAuthenticatedError";
  constructor(message = "Sign in or send an API token first.") {
    super(message, ERROR_CODES.UNAUTHENTICATED);
  }
}

/** Signed in, but not allowed to do this. */
export class ForbiddenError extends HyperlensError {
  override name = "ForbiddenError";
  constructor(message = "You do not have the capability this field needs.") {
    super(message, ERROR_CODES.FORBIDDEN);
  }
}

/** The object to act on does not exist (or is not the caller's to see). */
export class NotFoundError extends HyperlensError {
  override name = "NotFoundError";
  constructor(message: string) {
    super(message, ERROR_CODES.NOT_FOUND);
  }
}

/** A session that must change its password first asked for something else. */
export class PasswordChangeRequiredError extends HyperlensError {
  override name = "PasswordChangeRequiredError";
  constructor() {
    super(
      "Your password was reset by an administrator. Choose a new password before doing anything else.",
      ERROR_CODES.PASSWORD_CHANGE_REQUIRED,
    );
  }
}

/** The server is shutting down and takes no new syncs; another replica (or a restart) will. */
export class ShuttingDownError extends HyperlensError {
  override name = "ShuttingDownError";
  constructor(message: string) {
    super(message, ERROR_CODES.SHUTTING_DOWN);
  }
}

/** A sign-in provider cannot answer now; the message names it, the server log says why. */
export class ProviderUnavailableError extends HyperlensError {
  override name = "ProviderUnavailableError";
  constructor(message: string) {
    super(message, ERROR_CODES.PROVIDER_UNAVAILABLE);
  }
}

/** One broken rule and the input field it concerns. */
export interface FieldProblem {
  field?: string;
  message: string;
}

/**
 * A rule the input broke, with the field it concerns, for the UI to show beside that field.
 * `problems` lists every broken rule when there are several; the first is the message. A typed
 * result where the field declares it, an error with `field` and `problems` elsewhere.
 */
export class ValidationError extends HyperlensError {
  override name = "ValidationError";
  readonly field: string | undefined;
  readonly problems: FieldProblem[];
  constructor(message: string, field?: string, problems?: FieldProblem[]) {
    const all = problems ?? [{ field, message }];
    super(message, ERROR_CODES.BAD_USER_INPUT, { field, problems: all });
    this.field = field;
    this.problems = all;
  }

  /** One error carrying several problems. */
  static of(problems: FieldProblem[]): ValidationError {
    const first = problems[0] ?? { message: "The input is not valid." };
    return new ValidationError(first.message, first.field, problems);
  }
}

/** Wrong user name or password: one error for both, so neither is revealed. A typed result. */
export class InvalidCredentialsError extends HyperlensError {
  override name = "InvalidCredentialsError";
  constructor() {
    super("The user name or password is not correct.", ERROR_CODES.UNAUTHENTICATED);
  }
}

/** Too many failed sign-ins. A typed result. */
export class RateLimitedError extends HyperlensError {
  override name = "RateLimitedError";
  constructor(readonly retryAt: Date) {
    super("Too many failed sign-in attempts. Try again later.", ERROR_CODES.RATE_LIMITED);
  }
}

/**
 * The password held, and the account has two-factor on: no session yet. `challenge` (single use,
 * a few minutes) goes to `completeSignIn` with a code. A typed result of `signIn`; it implements
 * `Error` so a client that predates two-factor shows its message instead of failing.
 */
export class TwoFactorRequired extends HyperlensError {
  override name = "TwoFactorRequired";
  constructor(
    readonly challenge: string,
    readonly expiresAt: Date,
  ) {
    super(
      "Enter the code from your authenticator app to finish signing in.",
      ERROR_CODES.UNAUTHENTICATED,
    );
  }
}

/** A wrong (or already used) two-factor or recovery code. A typed result. */
export class InvalidTwoFactorCodeError extends HyperlensError {
  override name = "InvalidTwoFactorCodeError";
  constructor() {
    super("The code is not correct.", ERROR_CODES.UNAUTHENTICATED);
  }
}

/** A sign-in challenge that is unknown, expired or already used: sign in again. A typed result. */
export class SignInExpiredError extends HyperlensError {
  override name = "SignInExpiredError";
  constructor() {
    super(
      "This sign-in has expired or was already completed. Sign in again.",
      ERROR_CODES.UNAUTHENTICATED,
    );
  }
}

/** The session must enrol in two-factor before anything else (docs/behaviour.md §12.35). */
export class TwoFactorEnrolmentRequiredError extends HyperlensError {
  override name = "TwoFactorEnrolmentRequiredError";
  constructor() {
    super(
      "Your administrator requires two-factor sign-in: set it up before doing anything else.",
      ERROR_CODES.TWO_FACTOR_ENROLMENT_REQUIRED,
    );
  }
}

/**
 * A connection's stored secret that no configured key opens. Not a GraphQL error: Test and sync
 * report it as a result under its own error class, never as an internal error.
 */
export class SecretUnreadableError extends ClassifiedError {
  override name = "SecretUnreadableError";

  /** The administrator's version of a decrypt failure (which names at most a key id). */
  static from(error: SecretDecryptError): SecretUnreadableError {
    const reenter = "Edit the connection and enter the secret again";
    const message = error.missingKeyId
      ? `The stored secret cannot be opened with the configured keys: it was sealed with key ${error.missingKeyId}, which is not configured. ` +
        `${reenter}, or start Hyperlens with that previous key in HYPERLENS_SECRET_KEY_PREVIOUS and run \`hyperlens secrets rotate\`.`
      : `The stored secret cannot be opened with the configured keys: it was altered or belongs to another connection. ${reenter}.`;
    return new SecretUnreadableError(message, RESULT_ERROR_CLASSES.SECRET_UNREADABLE, {
      cause: error,
    });
  }
}

/**
 * The JSON body of a refusal answered before GraphQL runs (by the HTTP server, not Yoga): the
 * same shape as a GraphQL error, so a client reads every refusal one way.
 */
export function refusalBody(message: string, code: ErrorCode) {
  return { errors: [{ message, extensions: { code } }] };
}

/**
 * True when `error` is a GraphQL error or wraps one (graphql-js wraps what a resolver throws):
 * raised on purpose by us, graphql-js or a plugin, not a crash.
 */
function isRaisedOnPurpose(error: GraphQLError): boolean {
  return !error.originalError || error.originalError instanceof GraphQLError;
}

/** `error` with `code` added, everything else kept. */
function withCode(error: GraphQLError, code: ErrorCode): GraphQLError {
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: { ...error.extensions, code },
  });
}

/**
 * graphql-armor's `onReject` hook: its refusals (tokens, depth, aliases, cost) carry no code of
 * their own; they get QUERY_TOO_COMPLEX.
 */
export function tagTooComplex(_context: unknown, error: GraphQLError): void {
  (error.extensions as Record<string, unknown>).code = ERROR_CODES.QUERY_TOO_COMPLEX;
}

/**
 * What a client sees of `error` (yoga's `maskedErrors.maskError`). Errors raised on purpose pass
 * through. Of those without a code, Pothos' refusal of a malformed or foreign global id and a
 * request-level error (no path: a variable of the wrong type, a missing variable, a request
 * without the CSRF header) are bad input. Anything else is reported to `onUnexpected` and
 * answered with `message` and INTERNAL_SERVER_ERROR.
 */
export function maskError(
  error: unknown,
  message: string,
  onUnexpected: (error: unknown) => void,
): GraphQLError {
  if (error instanceof GraphQLError && isRaisedOnPurpose(error)) {
    // Pothos refuses a malformed or foreign global id before any resolver runs.
    if (isPothosIdRefusal(error)) {
      return new GraphQLError(error.message, {
        ...(error.path ? { path: error.path } : {}),
        extensions: { code: ERROR_CODES.BAD_USER_INPUT, field: "id" },
      });
    }
    if (error.extensions.code !== undefined || error.path !== undefined) return error;
    return withCode(error, ERROR_CODES.BAD_USER_INPUT);
  }
  onUnexpected(error instanceof GraphQLError ? error.originalError : error);
  return new GraphQLError(message, { extensions: { code: ERROR_CODES.INTERNAL_SERVER_ERROR } });
}

function isPothosIdRefusal(error: GraphQLError): boolean {
  return (
    error instanceof PothosValidationError || error.originalError instanceof PothosValidationError
  );
}

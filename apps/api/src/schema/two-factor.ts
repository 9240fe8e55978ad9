// Two-factor for local accounts (docs/behaviour.md §12.30–12.26): enrolment, the second sign-in
// step, recovery codes, and the administrator's switch and reset.
import { isTwoFactorRequired } from "../auth/two-factor-policy.ts";
import type { Viewer } from "../auth/viewer.ts";
import type { Context } from "../context.ts";
import {
  InvalidTwoFactorCodeError,
  NotAuthenticatedError,
  RateLimitedError,
  SignInExpiredError,
  ValidationError,
} from "../errors.ts";
import { completeSignIn } from "../services/sign-in.ts";
import {
  beginTwoFactorEnrolment,
  type CodeOutcome,
  confirmTwoFactor,
  disableTwoFactor,
  regenerateRecoveryCodes,
  resetTwoFactor,
  setTwoFactorRequired,
  type TwoFactorEnrolment,
} from "../services/two-factor.ts";
import { startSession } from "./auth.ts";
import { builder } from "./builder.ts";
import { ViewerRef } from "./viewer.ts";

const MAX_CHALLENGE_LENGTH = 1024;

const TwoFactorEnrolmentRef = builder
  .objectRef<TwoFactorEnrolment>("TwoFactorEnrolment")
  .implement({
    description:
      "What an authenticator app needs to add the account. Shown while enrolling only: the secret is stored sealed and never shown again.",
    fields: (t) => ({
      uri: t.exposeString("uri", { description: "The otpauth:// URI the QR code encodes." }),
      secret: t.exposeString("secret", {
        description: "The secret in base32, to type in by hand.",
      }),
      qrCodeSvg: t.exposeString("qrCodeSvg", {
        description: "The QR code of `uri`, as an SVG document (rendered by the server).",
      }),
    }),
  });

function signedInUser(ctx: Context): Viewer {
  if (ctx.viewer?.kind !== "USER") throw new NotAuthenticatedError();
  return ctx.viewer;
}

/** Who acts for an administrator's field: a user or an API token (its scopes were checked). */
function actor(ctx: Context): Viewer {
  if (!ctx.viewer) throw new NotAuthenticatedError();
  return ctx.viewer;
}

/** A refused code as its typed result, counted in the auth failures metric. */
function refuseCode(
  ctx: Context,
  refusal: { reason: "INVALID_CODE" } | { reason: "RATE_LIMITED"; retryAt: Date },
): never {
  ctx.metrics.authFailures.inc({
    reason: refusal.reason === "RATE_LIMITED" ? "two_factor_rate_limited" : "two_factor",
  });
  throw refusal.reason === "RATE_LIMITED"
    ? new RateLimitedError(refusal.retryAt)
    : new InvalidTwoFactorCodeError();
}

/** The value of a step that needed a code, or its typed refusal. */
function unwrap<T>(ctx: Context, outcome: CodeOutcome<T>): T {
  if (outcome.ok) return outcome.value;
  return refuseCode(ctx, outcome);
}

builder.objectField(ViewerRef, "isTwoFactorEnabled", (t) =>
  t.boolean({
    description: "The signed-in user (or the token's user) has two-factor on.",
    resolve: async (viewer, _args, ctx) => {
      const user = await ctx.prisma.user.findUnique({
        where: { id: viewer.userId },
        select: { totpEnabledAt: true },
      });
      return Boolean(user?.totpEnabledAt);
    },
  }),
);

builder.objectField(ViewerRef, "mustEnrolTwoFactor", (t) =>
  t.boolean({
    description:
      "The administrator requires two-factor and this session has not enrolled: until `confirmTwoFactor` succeeds it may only enrol, read `viewer` and sign out.",
    resolve: (viewer) => viewer.mustEnrolTwoFactor === true,
  }),
);

builder.prismaObjectField("User", "isTwoFactorEnabled", (t) =>
  t.boolean({
    description: "The user has two-factor on.",
    resolve: (user) => user.totpEnabledAt !== null,
  }),
);

builder.mutationField("completeSignIn", (t) =>
  t.field({
    type: ViewerRef,
    description:
      "Finishes a sign-in that answered `TwoFactorRequired`: the challenge and a code from the authenticator app (or, instead, one of the recovery codes). Sets the session cookie.",
    errors: { types: [InvalidTwoFactorCodeError, SignInExpiredError, RateLimitedError] },
    args: {
      challenge: t.arg.string({ required: true }),
      code: t.arg.string({ required: false }),
      recoveryCode: t.arg.string({ required: false }),
    },
    resolve: async (_root, args, ctx) => {
      if (args.challenge.length > MAX_CHALLENGE_LENGTH) throw new SignInExpiredError();
      const result = await completeSignIn(
        ctx.prisma,
        ctx.secrets,
        {
          challenge: args.challenge,
          code: args.code,
          recoveryCode: args.recoveryCode,
          address: ctx.clientAddress,
          userAgent: ctx.userAgent,
        },
        ctx.sessionPolicy,
      );
      if (result.ok) return startSession(ctx, result.secret);
      if (result.reason === "CHALLENGE_EXPIRED") throw new SignInExpiredError();
      return refuseCode(ctx, result);
    },
  }),
);

builder.mutationField("beginTwoFactorEnrolment", (t) =>
  t.field({
    type: TwoFactorEnrolmentRef,
    authScopes: { enrolling: true },
    description:
      "Starts setting up two-factor for the signed-in user, given the current password: a new secret, not in force until `confirmTwoFactor`. Local password accounts only.",
    errors: { types: [ValidationError, RateLimitedError] },
    args: { currentPassword: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const outcome = await beginTwoFactorEnrolment(
        ctx.prisma,
        ctx.secrets,
        signedInUser(ctx).userId,
        args.currentPassword,
        { address: ctx.clientAddress },
      );
      if (outcome.ok) return outcome.value;
      if (outcome.reason === "RATE_LIMITED") throw new RateLimitedError(outcome.retryAt);
      throw new Error("unreachable: enrolment refuses a password with a ValidationError");
    },
  }),
);

builder.mutationField("confirmTwoFactor", (t) =>
  t.stringList({
    authScopes: { enrolling: true },
    description:
      "Turns two-factor on with a first code from the authenticator app; answers the recovery codes, shown this once.",
    errors: { types: [InvalidTwoFactorCodeError, RateLimitedError, ValidationError] },
    args: { code: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) =>
      unwrap(
        ctx,
        await confirmTwoFactor(ctx.prisma, ctx.secrets, signedInUser(ctx), args.code, {
          address: ctx.clientAddress,
        }),
      ),
  }),
);

builder.mutationField("regenerateRecoveryCodes", (t) =>
  t.stringList({
    authScopes: { user: true },
    description:
      "New recovery codes for the signed-in user, given a current code; the old ones stop working. Shown this once.",
    errors: { types: [InvalidTwoFactorCodeError, RateLimitedError, ValidationError] },
    args: { code: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx) =>
      unwrap(
        ctx,
        await regenerateRecoveryCodes(ctx.prisma, ctx.secrets, signedInUser(ctx), args.code, {
          address: ctx.clientAddress,
        }),
      ),
  }),
);

builder.mutationField("disableTwoFactor", (t) =>
  t.boolean({
    authScopes: { user: true },
    description:
      "Turns two-factor off for the signed-in user: the current password and a code (or a recovery code).",
    errors: { types: [InvalidTwoFactorCodeError, RateLimitedError, ValidationError] },
    args: {
      currentPassword: t.arg.string({ required: true }),
      code: t.arg.string({ required: false }),
      recoveryCode: t.arg.string({ required: false }),
    },
    resolve: async (_root, args, ctx) =>
      unwrap(
        ctx,
        await disableTwoFactor(
          ctx.prisma,
          ctx.secrets,
          signedInUser(ctx),
          {
            currentPassword: args.currentPassword,
            code: args.code,
            recoveryCode: args.recoveryCode,
          },
          { address: ctx.clientAddress },
        ),
      ),
  }),
);

builder.mutationField("resetTwoFactor", (t) =>
  t.prismaField({
    type: "User",
    authScopes: { MANAGE_USERS: true },
    description:
      "Clears a user's two-factor (secret and recovery codes), for a lost phone; audited. Where two-factor is required, the user enrols again at the next sign-in.",
    args: { userId: t.arg.globalID({ required: true }) },
    resolve: async (_query, _root, args, ctx) => {
      if (args.userId.typename !== "User") {
        throw new ValidationError("The id is not a user's.", "userId");
      }
      return resetTwoFactor(ctx.prisma, actor(ctx), args.userId.id);
    },
  }),
);

builder.queryField("isTwoFactorRequired", (t) =>
  t.boolean({
    authScopes: { MANAGE_USERS: true },
    description:
      'The instance setting "require two-factor for everyone": every local password account must enrol at its next sign-in.',
    resolve: (_root, _args, ctx) => isTwoFactorRequired(ctx.prisma),
  }),
);

builder.mutationField("setTwoFactorRequired", (t) =>
  t.boolean({
    authScopes: { MANAGE_USERS: true },
    description:
      "Requires two-factor of every local password account (or stops requiring it); answers the new value. An administrator signed in with a password must have two-factor on first. Audited.",
    errors: { types: [ValidationError] },
    args: { required: t.arg.boolean({ required: true }) },
    resolve: (_root, args, ctx) => setTwoFactorRequired(ctx.prisma, actor(ctx), args.required),
  }),
);

// Sign-in, sign-out and first-run setup.
import {
  clearedSessionCookie,
  deleteSession,
  sessionCookie,
  viewerFromSession,
} from "../auth/sessions.ts";
import type { Viewer } from "../auth/viewer.ts";
import type { Context } from "../context.ts";
import {
  ForbiddenError,
  InvalidCredentialsError,
  RateLimitedError,
  TwoFactorRequired,
  ValidationError,
} from "../errors.ts";
import { signIn } from "../services/sign-in.ts";
import { createUser, hasAnyUser } from "../services/users.ts";
import { builder } from "./builder.ts";
import { ViewerRef } from "./viewer.ts";

const MAX_CREDENTIAL_LENGTH = 1024;

/** Sets the cookie of a session just created by a sign-in and returns its viewer. */
export async function startSession(ctx: Context, secret: string): Promise<Viewer> {
  // A fresh session id at every sign-in: an id planted before sign-in is worthless.
  if (ctx.viewer?.sessionId) await deleteSession(ctx.prisma, ctx.viewer.sessionId);
  ctx.responseCookies.push(sessionCookie(secret, ctx.sessionPolicy.maxMs));
  const viewer = await viewerFromSession(ctx.prisma, secret, ctx.sessionPolicy);
  if (!viewer) throw new Error("The new session could not be read back.");
  return viewer;
}

builder.mutationField("signIn", (t) =>
  t.field({
    type: ViewerRef,
    description:
      "Signs in with a user name and password; sets the session cookie. An account with two-factor on answers `TwoFactorRequired` instead: finish with `completeSignIn`.",
    errors: { types: [InvalidCredentialsError, RateLimitedError, TwoFactorRequired] },
    args: {
      username: t.arg.string({ required: true }),
      password: t.arg.string({ required: true }),
    },
    resolve: async (_root, args, ctx) => {
      if (
        args.username.length > MAX_CREDENTIAL_LENGTH ||
        args.password.length > MAX_CREDENTIAL_LENGTH
      ) {
        ctx.metrics.authFailures.inc({ reason: "sign_in" });
        throw new InvalidCredentialsError();
      }
      const result = await signIn(
        ctx.prisma,
        {
          username: args.username,
          password: args.password,
          address: ctx.clientAddress,
          userAgent: ctx.userAgent,
        },
        ctx.sessionPolicy,
      );
      if (!result.ok && result.reason === "TWO_FACTOR_REQUIRED") {
        throw new TwoFactorRequired(result.challenge, result.expiresAt);
      }
      if (!result.ok) {
        ctx.metrics.authFailures.inc({
          reason: result.reason === "RATE_LIMITED" ? "sign_in_rate_limited" : "sign_in",
        });
        if (result.reason === "RATE_LIMITED") throw new RateLimitedError(result.retryAt);
        if (result.reason === "PASSWORD_SIGN_IN_OFF")
          throw new ForbiddenError(
            "Password sign-in is turned off: sign in with your organisation's provider.",
          );
        throw new InvalidCredentialsError();
      }
      return startSession(ctx, result.secret);
    },
  }),
);

builder.mutationField("signOut", (t) =>
  t.boolean({
    description: "Ends the current session and clears its cookie.",
    resolve: async (_root, _args, ctx) => {
      if (ctx.viewer?.sessionId) {
        await deleteSession(ctx.prisma, ctx.viewer.sessionId);
        // This session's open subscriptions end now, not at the next periodic check.
        ctx.credentialChanges.announce(ctx.viewer.userId);
      }
      ctx.responseCookies.push(clearedSessionCookie());
      return true;
    },
  }),
);

builder.queryField("isSetupRequired", (t) =>
  t.boolean({
    description: "True until the first user exists; the web app then shows the setup page.",
    resolve: async (_root, _args, ctx) => !(await hasAnyUser(ctx.prisma)),
  }),
);

builder.mutationField("completeSetup", (t) =>
  t.field({
    type: ViewerRef,
    description:
      "Creates the first administrator with the one-time setup token printed at start-up, and signs in.",
    errors: { types: [ValidationError] },
    args: {
      setupToken: t.arg.string({ required: true }),
      username: t.arg.string({ required: true }),
      password: t.arg.string({ required: true }),
    },
    resolve: async (_root, args, ctx) => {
      if (await hasAnyUser(ctx.prisma)) {
        throw new ForbiddenError("Setup is already complete.");
      }
      if (!ctx.setupTokens.matches(args.setupToken)) {
        throw new ValidationError(
          "The setup token is not valid. Use the one printed at start-up.",
          "setupToken",
        );
      }
      await createUser(
        ctx.prisma,
        { username: args.username, password: args.password, isAdmin: true },
        null,
      );
      ctx.setupTokens.revoke();
      const result = await signIn(
        ctx.prisma,
        {
          username: args.username,
          password: args.password,
          address: ctx.clientAddress,
          userAgent: ctx.userAgent,
        },
        ctx.sessionPolicy,
      );
      if (!result.ok) throw new Error("The new administrator could not sign in.");
      return startSession(ctx, result.secret);
    },
  }),
);

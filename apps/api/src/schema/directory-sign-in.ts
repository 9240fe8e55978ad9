// Signing in with a directory account (LDAP, Active Directory) from the ordinary sign-in form.
import type { Context } from "../context.ts";
import {
  ForbiddenError,
  InvalidCredentialsError,
  ProviderUnavailableError,
  RateLimitedError,
  ValidationError,
} from "../errors.ts";
import { checkDirectory, DirectoryError } from "../identity/ldap-directory.ts";
import { signInWithDirectory } from "../identity/ldap-sign-in.ts";
import { findIdentityProvider } from "../identity/providers.ts";
import { startSession } from "./auth.ts";
import { builder } from "./builder.ts";
import { ViewerRef } from "./viewer.ts";

const MAX_CREDENTIAL_LENGTH = 1024;

builder.mutationField("signInWithDirectory", (t) =>
  t.field({
    type: ViewerRef,
    description:
      "Signs in with a directory (LDAP, Active Directory) account's user name and password; sets the session cookie. The same limits as `signIn` apply.",
    errors: { types: [InvalidCredentialsError, RateLimitedError, ValidationError] },
    args: {
      provider: t.arg.string({ required: true, description: "The directory provider's slug." }),
      username: t.arg.string({ required: true }),
      password: t.arg.string({ required: true }),
    },
    resolve: async (_root, args, ctx: Context) => {
      if (
        args.username.length > MAX_CREDENTIAL_LENGTH ||
        args.password.length > MAX_CREDENTIAL_LENGTH
      ) {
        ctx.metrics.authFailures.inc({ reason: "sign_in" });
        throw new InvalidCredentialsError();
      }
      const result = await signInWithDirectory(
        {
          prisma: ctx.prisma,
          secrets: ctx.secrets,
          environmentProviders: ctx.environmentProviders,
        },
        {
          provider: args.provider,
          username: args.username,
          password: args.password,
          address: ctx.clientAddress,
          userAgent: ctx.userAgent,
        },
        ctx.sessionPolicy,
      );
      if (result.ok) return startSession(ctx, result.secret);
      ctx.metrics.authFailures.inc({
        reason: result.reason === "RATE_LIMITED" ? "sign_in_rate_limited" : "sign_in",
      });
      switch (result.reason) {
        case "RATE_LIMITED":
          throw new RateLimitedError(result.retryAt);
        case "INVALID_CREDENTIALS":
        case "ACCOUNT_DISABLED":
          // docs/behaviour.md §12: a disabled account's right password is answered as a wrong one.
          throw new InvalidCredentialsError();
        case "UNKNOWN_PROVIDER":
          throw new ValidationError(result.message, "provider");
        case "UNAVAILABLE":
          ctx.logger.warn(
            { provider: args.provider, reason: result.detail },
            "directory sign-in failed",
          );
          throw new ProviderUnavailableError(result.message);
        default:
          throw new ForbiddenError(result.message);
      }
    },
  }),
);

const DirectoryCheckRef = builder
  .objectRef<{ isOk: boolean; message: string | null }>("DirectoryCheck")
  .implement({
    description: "What a directory provider's test found: connected and bound, or why not.",
    fields: (t) => ({
      isOk: t.exposeBoolean("isOk"),
      message: t.string({
        nullable: true,
        description: "Why the directory could not be used (for the administrator).",
        resolve: (c) => c.message,
      }),
    }),
  });

builder.mutationField("testDirectoryProvider", (t) =>
  t.field({
    type: DirectoryCheckRef,
    description:
      "Connects to a directory provider and binds its service account, as a sign-in would; says what failed.",
    authScopes: { MANAGE_USERS: true },
    errors: { types: [ValidationError] },
    args: { slug: t.arg.string({ required: true }) },
    resolve: async (_root, args, ctx: Context) => {
      const provider = await findIdentityProvider(
        {
          prisma: ctx.prisma,
          secrets: ctx.secrets,
          environmentProviders: ctx.environmentProviders,
        },
        args.slug,
      );
      if (provider?.kind !== "LDAP")
        throw new ValidationError(`No directory provider has the slug ${args.slug}.`, "slug");
      try {
        await checkDirectory(provider.settings, provider.secret());
        return { isOk: true, message: null };
      } catch (error) {
        if (error instanceof DirectoryError) return { isOk: false, message: error.message };
        throw error;
      }
    },
  }),
);

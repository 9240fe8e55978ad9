// Signing in with a directory account (LDAP, Active Directory) from the ordinary sign-in form: the
// attempt is counted against the same limits as a local password before the directory is asked,
// the directory checks the password, and the shared identity sign-in links or creates the account
// and re-applies the provider's group mappings.
import type { PrismaClient } from "@hyperlens/db";
import type { SessionPolicy } from "../auth/sessions.ts";
import {
  reserveSignInAttempt,
  settleSuccessfulSignIn,
  signInKeys,
  type ThrottlePolicy,
} from "../auth/throttle.ts";
import { findUserByName } from "../services/users.ts";
import { type ExternalSignInRefusal, signInExternalIdentity } from "./external-sign-in.ts";
import {
  authenticateWithDirectory,
  CREDENTIAL_FAILURES,
  DirectoryError,
} from "./ldap-directory.ts";
import { findIdentityProvider, type ProviderSources } from "./providers.ts";

export type DirectorySignInResult =
  | { ok: true; secret: string; userId: string }
  | { ok: false; reason: "INVALID_CREDENTIALS" }
  | { ok: false; reason: "RATE_LIMITED"; retryAt: Date }
  | { ok: false; reason: "UNKNOWN_PROVIDER"; message: string }
  /** The directory could not answer (down, TLS, service account): `detail` is for the log. */
  | { ok: false; reason: "UNAVAILABLE"; message: string; detail: string }
  | { ok: false; reason: ExternalSignInRefusal; message: string };

/** Checks a user name and password against the provider's directory and signs the person in. */
export async function signInWithDirectory(
  sources: ProviderSources,
  input: {
    provider: string;
    username: string;
    password: string;
    address?: string | undefined;
    userAgent?: string | undefined;
  },
  policy: SessionPolicy,
  throttle?: ThrottlePolicy,
): Promise<DirectorySignInResult> {
  const { prisma } = sources;
  const provider = await findIdentityProvider(sources, input.provider);
  if (provider?.kind !== "LDAP") {
    return {
      ok: false,
      reason: "UNKNOWN_PROVIDER",
      message: `No directory is configured as ${JSON.stringify(input.provider)}.`,
    };
  }
  // TRAP: docs/behaviour.md §12.45 — a provider turned off must not receive passwords any more.
  if (!provider.isEnabled) {
    return {
      ok: false,
      reason: "PROVIDER_DISABLED",
      message: `Signing in with ${provider.displayName} is turned off.`,
    };
  }
  const username = input.username.trim();
  // TRAP: docs/behaviour.md §12.42 — the same keys as the local form's, counted before the bind:
  // switching the form between "Local account" and a directory buys no extra guesses.
  const keys = await throttleKeys(prisma, username, input.address);
  const retryAt = await reserveSignInAttempt(prisma, keys, throttle);
  if (retryAt) return { ok: false, reason: "RATE_LIMITED", retryAt };
  let person: Awaited<ReturnType<typeof authenticateWithDirectory>>;
  try {
    person = await authenticateWithDirectory(
      provider.settings,
      provider.secret(),
      username,
      input.password,
    );
  } catch (error) {
    if (!(error instanceof DirectoryError)) throw error;
    // A failure was counted when the attempt was reserved.
    if (CREDENTIAL_FAILURES.has(error.failure)) return { ok: false, reason: "INVALID_CREDENTIALS" };
    return {
      ok: false,
      reason: "UNAVAILABLE",
      message: `Signing in with ${provider.displayName} is not possible right now. Try again later, or ask an administrator to look at the server log.`,
      detail: `${provider.slug}: ${error.failure}: ${error.message}`,
    };
  }
  await settleSuccessfulSignIn(prisma, keys, throttle);
  const result = await signInExternalIdentity(
    prisma,
    provider,
    {
      subject: person.subject,
      preferredUsername: person.username,
      email: person.email,
      groups: person.groups,
    },
    { address: input.address, userAgent: input.userAgent },
    policy,
  );
  if (!result.ok) return { ok: false, reason: result.reason, message: result.message };
  return { ok: true, secret: result.secret, userId: result.userId };
}

async function throttleKeys(prisma: PrismaClient, username: string, address: string | undefined) {
  return signInKeys(await findUserByName(prisma, username), username, address);
}

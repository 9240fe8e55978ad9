// Two-factor for local password accounts (docs/behaviour.md §12.30–12.26): a TOTP secret sealed with
// the secret box, confirmed by a first code, one-time recovery codes stored as hashes, and one
// check of a second factor that every caller (sign-in, disabling, regenerating) goes through, so
// the rate limit and the one-use-per-step rule hold everywhere a code is typed.
import { randomInt } from "node:crypto";
import type { Prisma, PrismaClient, SecretBox } from "@hyperlens/db";
import { Secret, TOTP } from "otpauth";
import QRCode from "qrcode";
import { verifyPassword } from "../auth/passwords.ts";
import {
  reserveSignInAttempt,
  type SignInKeys,
  settleSuccessfulSignIn,
  signInKeys,
  type ThrottlePolicy,
} from "../auth/throttle.ts";
import { hashSecret } from "../auth/tokens.ts";
import type { Viewer } from "../auth/viewer.ts";
import { NotFoundError, ValidationError } from "../errors.ts";
import { REQUIRE_TWO_FACTOR, writeSwitch } from "./app-settings.ts";
import { recordAudit } from "./audit.ts";
import { checkAuthorityOver } from "./users.ts";

/** The name authenticator apps show above the account. */
export const TOTP_ISSUER = "Hyperlens";
/** RFC 6238 as every authenticator app reads it: SHA-1, 6 digits, 30-second steps. */
const TOTP_PERIOD_SECONDS = 30;
const TOTP_DIGITS = 6;
/** A code of the step before or after now is accepted too: clocks drift and people type slowly. */
const TOTP_WINDOW = 1;
/** How many recovery codes a user gets at a time. */
export const RECOVERY_CODE_COUNT = 10;
// 16 characters of Crockford's base32 (no i, l, o, u): 80 random bits, so a SHA-256 of the code
// is as safe to store as a token's hash.
const RECOVERY_ALPHABET = "0123456789abcdefghjkmnpqrstvwxyz";
const RECOVERY_CODE_LENGTH = 16;
const MAX_CODE_LENGTH = 64;

type Writer = PrismaClient | Prisma.TransactionClient;

/**
 * The associated data a user's TOTP secret is sealed under: the user's id, in a namespace no
 * connection id can take, so a sealed secret moved to another row (or to a connection) won't open.
 */
export function totpSealingId(userId: string): string {
  return `user-totp:${userId}`;
}

function totpOf(secretBase32: string, username: string): TOTP {
  return new TOTP({
    issuer: TOTP_ISSUER,
    label: username,
    algorithm: "SHA1",
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    secret: Secret.fromBase32(secretBase32),
  });
}

/** What an authenticator app needs to add the account; shown while enrolling only. */
export interface TwoFactorEnrolment {
  /** The otpauth:// URI the QR code encodes. */
  uri: string;
  /** The secret in base32, for typing in by hand. */
  secret: string;
  /** The QR code of `uri` as an SVG document. */
  qrCodeSvg: string;
}

async function localUser(prisma: Writer, userId: string) {
  const user = await prisma.user.findUnique({ where: { id: userId } });
  if (!user || user.disabledAt) throw new NotFoundError("The user does not exist.");
  // TRAP: docs/behaviour.md §12.30 — a single sign-on account's second factor is its provider's.
  if (!user.passwordHash) {
    throw new ValidationError(
      "Two-factor is for accounts that sign in with a password; this account signs in through single sign-on.",
    );
  }
  return user;
}

/**
 * Starts (or restarts) enrolment: a new random secret, sealed, not yet in force. Needs the current
 * password, counted like a sign-in attempt: a stolen session alone must not put a second factor
 * the real user lacks on the account. Refused while two-factor is on: turning it off first needs
 * the password and a code.
 */
export async function beginTwoFactorEnrolment(
  prisma: PrismaClient,
  secrets: SecretBox,
  userId: string,
  currentPassword: string,
  options: CodeOptions = {},
): Promise<CodeOutcome<TwoFactorEnrolment>> {
  const user = await localUser(prisma, userId);
  if (user.totpEnabledAt) {
    throw new ValidationError("Two-factor is already on. Turn it off first to set it up again.");
  }
  const keys = signInKeys(user, user.username, options.address);
  const retryAt = await reserveSignInAttempt(prisma, keys, options.throttle, options.now);
  if (retryAt) return { ok: false, reason: "RATE_LIMITED", retryAt };
  // TRAP: docs/behaviour.md §12.31 — without the password a stolen session could lock its user out.
  const isPassword =
    user.passwordHash !== null &&
    currentPassword.length <= 1024 &&
    (await verifyPassword(currentPassword, user.passwordHash));
  if (!isPassword) {
    throw new ValidationError("The current password is not correct.", "currentPassword");
  }
  await settleSuccessfulSignIn(prisma, keys, options.throttle);
  const secret = new Secret({ size: 20 });
  const sealed = secrets.seal(secret.base32, totpSealingId(user.id));
  await prisma.user.update({
    where: { id: user.id },
    data: { totpCiphertext: sealed.ciphertext, totpKeyId: sealed.keyId, totpLastStep: null },
  });
  const uri = totpOf(secret.base32, user.username).toString();
  const qrCodeSvg = await QRCode.toString(uri, {
    type: "svg",
    errorCorrectionLevel: "M",
    margin: 2,
  });
  return { ok: true, value: { uri, secret: secret.base32, qrCodeSvg } };
}

/** A second factor as typed: a code from the app, or one of the recovery codes. */
export interface SecondFactor {
  code?: string | null | undefined;
  recoveryCode?: string | null | undefined;
}

/** The outcome of checking a second factor. */
export type SecondFactorCheck =
  | { ok: true }
  | { ok: false; reason: "INVALID_CODE" }
  | { ok: false; reason: "RATE_LIMITED"; retryAt: Date };

/**
 * The counters a code attempt is charged to: the user's own code counter — never the password
 * counter, which a right password clears (a guesser holding the password would get endless
 * tries) — and the client address, shared with password attempts.
 */
export function codeKeys(userId: string, address: string | undefined): SignInKeys {
  return { user: `totp:id:${userId}`, address: address ? `addr:${address}` : undefined };
}

/** Normalises a recovery code as typed: case, spaces and dashes do not matter. */
function normaliseRecoveryCode(code: string): string {
  return code.toLowerCase().replace(/[\s-]/g, "");
}

/** The time step a code of `secret` matches now (within the window), or null. */
function matchingStep(secretBase32: string, code: string, now: Date): number | null {
  const token = code.replace(/\s/g, "");
  if (!/^\d{6}$/.test(token)) return null;
  const totp = totpOf(secretBase32, "");
  const delta = totp.validate({ token, timestamp: now.getTime(), window: TOTP_WINDOW });
  if (delta === null) return null;
  return TOTP.counter({ period: TOTP_PERIOD_SECONDS, timestamp: now.getTime() }) + delta;
}

/**
 * Checks a TOTP code against the user's sealed secret and, when it matches, records its step in
 * the same statement that refuses a step already used.
 */
async function acceptTotpCode(
  prisma: Writer,
  secrets: SecretBox,
  user: { id: string; totpCiphertext: string | null },
  code: string,
  now: Date,
): Promise<boolean> {
  if (!user.totpCiphertext) return false;
  const secret = secrets.open(user.totpCiphertext, totpSealingId(user.id));
  const step = matchingStep(secret, code, now);
  if (step === null) return false;
  // TRAP: docs/behaviour.md §12.33 — without the stored step a code seen once works for 90 s.
  const taken = await prisma.user.updateMany({
    where: { id: user.id, OR: [{ totpLastStep: null }, { totpLastStep: { lt: step } }] },
    data: { totpLastStep: step },
  });
  return taken.count === 1;
}

/** Spends one unused recovery code of the user; false when it is wrong or already used. */
async function acceptRecoveryCode(
  prisma: Writer,
  userId: string,
  code: string,
  now: Date,
): Promise<boolean> {
  const codeHash = hashSecret(normaliseRecoveryCode(code));
  // TRAP: docs/behaviour.md §12.31 — one statement marks it used, so two requests cannot both spend it.
  const spent = await prisma.recoveryCode.updateMany({
    where: { userId, codeHash, usedAt: null },
    data: { usedAt: now },
  });
  return spent.count === 1;
}

/**
 * Accepts a second factor (a code in a step not used yet, or an unused recovery code when
 * allowed), spending it. Call only after {@link reserveCodeAttempt} took the attempt.
 */
export async function acceptSecondFactor(
  writer: Writer,
  secrets: SecretBox,
  user: { id: string; totpCiphertext: string | null },
  factor: SecondFactor,
  options: { allowRecoveryCode?: boolean; now?: Date } = {},
): Promise<boolean> {
  const now = options.now ?? new Date();
  const code = factor.code?.trim();
  const recoveryCode = factor.recoveryCode?.trim();
  if (code) {
    return code.length <= MAX_CODE_LENGTH && acceptTotpCode(writer, secrets, user, code, now);
  }
  if (recoveryCode && options.allowRecoveryCode) {
    return (
      recoveryCode.length <= MAX_CODE_LENGTH &&
      acceptRecoveryCode(writer, user.id, recoveryCode, now)
    );
  }
  return false;
}

/**
 * Charges a code attempt to the user's code counter and the client address BEFORE the code is
 * checked, as a password attempt is; the time to retry when either must still wait, else null.
 */
export function reserveCodeAttempt(
  prisma: PrismaClient,
  userId: string,
  options: { address?: string | undefined; throttle?: ThrottlePolicy | undefined; now?: Date },
): Promise<Date | null> {
  // TRAP: docs/behaviour.md §12.34 — counted before the code is checked, or guesses are free.
  return reserveSignInAttempt(
    prisma,
    codeKeys(userId, options.address),
    options.throttle,
    options.now,
  );
}

/** After a right code: the user's code failures are forgotten, the address's attempt refunded. */
export function settleCodeAttempt(
  prisma: PrismaClient,
  userId: string,
  options: { address?: string | undefined; throttle?: ThrottlePolicy | undefined },
): Promise<void> {
  return settleSuccessfulSignIn(prisma, codeKeys(userId, options.address), options.throttle);
}

/** Reserves an attempt, accepts the factor, and settles: one code check outside a sign-in. */
export async function checkSecondFactor(
  prisma: PrismaClient,
  secrets: SecretBox,
  user: { id: string; totpCiphertext: string | null },
  factor: SecondFactor,
  options: {
    address?: string | undefined;
    throttle?: ThrottlePolicy | undefined;
    allowRecoveryCode?: boolean;
    now?: Date | undefined;
  } = {},
): Promise<SecondFactorCheck> {
  const now = options.now ?? new Date();
  const retryAt = await reserveCodeAttempt(prisma, user.id, { ...options, now });
  if (retryAt) return { ok: false, reason: "RATE_LIMITED", retryAt };
  if (!(await acceptSecondFactor(prisma, secrets, user, factor, { ...options, now }))) {
    return { ok: false, reason: "INVALID_CODE" };
  }
  await settleCodeAttempt(prisma, user.id, options);
  return { ok: true };
}

/** New recovery codes, formatted for reading: `abcd-efgh-jkmn-pqrs`. */
function newRecoveryCodes(): string[] {
  return Array.from({ length: RECOVERY_CODE_COUNT }, () => {
    const chars = Array.from(
      { length: RECOVERY_CODE_LENGTH },
      () => RECOVERY_ALPHABET[randomInt(RECOVERY_ALPHABET.length)],
    ).join("");
    return chars.match(/.{4}/g)?.join("-") ?? chars;
  });
}

/** Replaces every recovery code of the user with new ones; returns them (the only time). */
async function replaceRecoveryCodes(tx: Prisma.TransactionClient, userId: string) {
  const codes = newRecoveryCodes();
  await tx.recoveryCode.deleteMany({ where: { userId } });
  await tx.recoveryCode.createMany({
    data: codes.map((code) => ({ userId, codeHash: hashSecret(normaliseRecoveryCode(code)) })),
  });
  return codes;
}

/** Where a code attempt comes from, its limits, and (for tests) the time it is checked at. */
export interface CodeOptions {
  address?: string | undefined;
  throttle?: ThrottlePolicy | undefined;
  now?: Date | undefined;
}

/** The outcome of a step that needs a code. */
export type CodeOutcome<T> = { ok: true; value: T } | Exclude<SecondFactorCheck, { ok: true }>;

/**
 * Turns two-factor on with a first code from the app and returns the recovery codes, shown this
 * once. The enrolment must have been started.
 */
export async function confirmTwoFactor(
  prisma: PrismaClient,
  secrets: SecretBox,
  actor: Viewer,
  code: string,
  options: CodeOptions = {},
): Promise<CodeOutcome<string[]>> {
  const user = await localUser(prisma, actor.userId);
  if (user.totpEnabledAt) throw new ValidationError("Two-factor is already on.");
  if (!user.totpCiphertext) {
    throw new ValidationError("Start setting up two-factor first: no secret is waiting.");
  }
  const check = await checkSecondFactor(prisma, secrets, user, { code }, options);
  if (!check.ok) return check;
  const codes = await prisma.$transaction(async (tx) => {
    await tx.user.update({ where: { id: user.id }, data: { totpEnabledAt: new Date() } });
    const codes = await replaceRecoveryCodes(tx, user.id);
    await recordAudit(tx, actor, {
      action: "user.twoFactor.enable",
      targetType: "user",
      targetId: user.id,
    });
    return codes;
  });
  return { ok: true, value: codes };
}

/** New recovery codes for a user with two-factor on, given a current code; the old ones stop working. */
export async function regenerateRecoveryCodes(
  prisma: PrismaClient,
  secrets: SecretBox,
  actor: Viewer,
  code: string,
  options: CodeOptions = {},
): Promise<CodeOutcome<string[]>> {
  const user = await localUser(prisma, actor.userId);
  if (!user.totpEnabledAt) throw new ValidationError("Two-factor is not on.");
  const check = await checkSecondFactor(prisma, secrets, user, { code }, options);
  if (!check.ok) return check;
  const codes = await prisma.$transaction(async (tx) => {
    const codes = await replaceRecoveryCodes(tx, user.id);
    await recordAudit(tx, actor, {
      action: "user.twoFactor.recoveryCodes",
      targetType: "user",
      targetId: user.id,
    });
    return codes;
  });
  return { ok: true, value: codes };
}

async function clearTwoFactor(tx: Prisma.TransactionClient, userId: string) {
  await tx.user.update({
    where: { id: userId },
    data: { totpCiphertext: null, totpKeyId: null, totpEnabledAt: null, totpLastStep: null },
  });
  await tx.recoveryCode.deleteMany({ where: { userId } });
  await tx.signInChallenge.deleteMany({ where: { userId } });
}

/**
 * Turns two-factor off for the signed-in user: needs the current password and a code (or a
 * recovery code). A wrong password answers as a wrong field, and still costs a code attempt.
 */
export async function disableTwoFactor(
  prisma: PrismaClient,
  secrets: SecretBox,
  actor: Viewer,
  input: { currentPassword: string } & SecondFactor,
  options: CodeOptions = {},
): Promise<CodeOutcome<true>> {
  const user = await localUser(prisma, actor.userId);
  if (!user.totpEnabledAt) throw new ValidationError("Two-factor is not on.");
  const check = await checkSecondFactor(prisma, secrets, user, input, {
    ...options,
    allowRecoveryCode: true,
  });
  if (!check.ok) return check;
  const isPassword =
    user.passwordHash !== null &&
    input.currentPassword.length <= 1024 &&
    (await verifyPassword(input.currentPassword, user.passwordHash));
  if (!isPassword) {
    throw new ValidationError("The current password is not correct.", "currentPassword");
  }
  await prisma.$transaction(async (tx) => {
    await clearTwoFactor(tx, user.id);
    await recordAudit(tx, actor, {
      action: "user.twoFactor.disable",
      targetType: "user",
      targetId: user.id,
    });
  });
  return { ok: true, value: true };
}

/**
 * An administrator's reset of a user's two-factor (a lost phone and lost codes): the secret,
 * recovery codes and pending sign-ins go. When the administrator requires two-factor, the user
 * enrols again at the next sign-in.
 */
export async function resetTwoFactor(prisma: PrismaClient, actor: Viewer, userId: string) {
  const user = await prisma.user.findUnique({ where: { id: userId } });
  if (!user) throw new NotFoundError("The user does not exist.");
  checkAuthorityOver(actor, user);
  return prisma.$transaction(async (tx) => {
    await clearTwoFactor(tx, user.id);
    await recordAudit(tx, actor, {
      action: "user.twoFactor.reset",
      targetType: "user",
      targetId: user.id,
      details: { wasEnabled: user.totpEnabledAt !== null },
    });
    return tx.user.findUniqueOrThrow({ where: { id: user.id } });
  });
}

/** Sets "require two-factor for everyone" (docs/behaviour.md §12.35); audited. */
export async function setTwoFactorRequired(prisma: PrismaClient, actor: Viewer, required: boolean) {
  if (required && actor.kind === "USER") {
    const self = await prisma.user.findUnique({ where: { id: actor.userId } });
    // An administrator who requires it without having it would be sent to enrol at once.
    if (self?.passwordHash && !self.totpEnabledAt) {
      throw new ValidationError(
        "Turn on two-factor for your own account first: requiring it would otherwise stop you at once.",
        "required",
      );
    }
  }
  return writeSwitch(prisma, REQUIRE_TWO_FACTOR, required, actor, {
    action: "settings.requireTwoFactor",
    details: { required },
  });
}

// Browser sessions: a 32-byte secret in an HttpOnly cookie, stored only as a hash, with an idle
// and an absolute timeout.
import type { PrismaClient } from "@hyperlens/db";
import { hashSecret, newSecret } from "./tokens.ts";
import { mustEnrolTwoFactor } from "./two-factor-policy.ts";
import { effectiveCapabilities, type Viewer } from "./viewer.ts";
import { userScope } from "./visibility.ts";

/** The cookie name; `__Host-` pins it to our origin, path / and Secure. */
export const SESSION_COOKIE = "__Host-hyperlens_session";

// Touching lastSeenAt on every request would write on every request.
const TOUCH_INTERVAL_MS = 60_000;

export interface SessionPolicy {
  idleMs: number;
  maxMs: number;
}

/** Where a session came from, shown to its user on the Sessions page. */
export interface SessionOrigin {
  address?: string | undefined;
  userAgent?: string | undefined;
  /** "password" (the default), or the slug of the single sign-on provider. */
  method?: string | undefined;
}

// A User-Agent is the client's to choose; it is kept for display, not without bound.
const MAX_USER_AGENT_LENGTH = 512;

/** Creates a session for a user and returns the cookie secret (shown to nobody else). */
export async function createSession(
  prisma: PrismaClient,
  userId: string,
  policy: SessionPolicy,
  origin: SessionOrigin = {},
) {
  const secret = newSecret();
  const session = await prisma.session.create({
    data: {
      userId,
      tokenHash: hashSecret(secret),
      expiresAt: new Date(Date.now() + policy.maxMs),
      address: origin.address ?? null,
      userAgent: origin.userAgent?.slice(0, MAX_USER_AGENT_LENGTH) ?? null,
      method: origin.method ?? "password",
    },
  });
  return { secret, session };
}

/** The viewer behind a session cookie, or null when unknown, expired, idle or disabled. */
export async function viewerFromSession(
  prisma: PrismaClient,
  secret: string,
  policy: SessionPolicy,
  now = new Date(),
): Promise<Viewer | null> {
  const session = await prisma.session.findUnique({
    where: { tokenHash: hashSecret(secret) },
    include: { user: true },
  });
  if (!session) return null;
  const isIdle = now.getTime() - session.lastSeenAt.getTime() > policy.idleMs;
  if (session.expiresAt <= now || isIdle || session.user.disabledAt) {
    await prisma.session.deleteMany({ where: { id: session.id } });
    return null;
  }
  if (now.getTime() - session.lastSeenAt.getTime() > TOUCH_INTERVAL_MS) {
    await prisma.session.update({ where: { id: session.id }, data: { lastSeenAt: now } });
  }
  // TRAP: docs/behaviour.md §12.35 — a session that must enrol holds no capability, so every
  // check anywhere (fields, subscriptions, HTTP routes) refuses it until two-factor is on.
  if (await mustEnrolTwoFactor(prisma, session.user, session.method)) {
    return {
      kind: "USER",
      userId: session.user.id,
      username: session.user.username,
      isAdmin: false,
      capabilities: new Set(),
      scope: { all: false, groupIds: [], connectionIds: [] },
      sessionId: session.id,
      mustEnrolTwoFactor: true,
    };
  }
  return {
    kind: "USER",
    userId: session.user.id,
    username: session.user.username,
    isAdmin: session.user.isAdmin,
    capabilities: effectiveCapabilities(session.user),
    mustChangePassword: session.user.mustChangePassword,
    scope: await userScope(prisma, session.user),
    sessionId: session.id,
  };
}

/** Ends a session. */
export async function deleteSession(prisma: PrismaClient, sessionId: string) {
  await prisma.session.deleteMany({ where: { id: sessionId } });
}

/** The Set-Cookie header value for a new session. */
export function sessionCookie(secret: string, maxMs: number): string {
  return `${SESSION_COOKIE}=${secret}; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=${Math.floor(maxMs / 1000)}`;
}

/** The Set-Cookie header value that removes the session cookie. */
export function clearedSessionCookie(): string {
  return `${SESSION_COOKIE}=; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=0`;
}

/** Reads the session secret from a Cookie header. */
export function sessionSecretFromCookieHeader(
  header: string | null | undefined,
): string | undefined {
  for (const part of (header ?? "").split(";")) {
    const [name, ...value] = part.trim().split("=");
    if (name === SESSION_COOKIE) return value.join("=") || undefined;
  }
  return undefined;
}

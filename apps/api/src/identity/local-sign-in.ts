// The "auth.localPasswordSignIn" setting: whether people sign in with a Hyperlens password at all,
// or only through an identity provider. Administrators keep password sign-in either way — the way
// back in when the provider is down or misconfigured (docs/security.md "Single sign-on").
import type { PrismaClient } from "@hyperlens/db";
import type { Viewer } from "../auth/viewer.ts";
import { LOCAL_PASSWORD_SIGN_IN, readSwitch, writeSwitch } from "../services/app-settings.ts";

/** True unless an administrator turned password sign-in off (the default is on). */
export function isLocalPasswordSignInEnabled(prisma: PrismaClient): Promise<boolean> {
  return readSwitch(prisma, LOCAL_PASSWORD_SIGN_IN);
}

/** Turns password sign-in on or off for everyone but administrators. */
export function setLocalPasswordSignIn(
  prisma: PrismaClient,
  isEnabled: boolean,
  actor: Viewer | null,
): Promise<boolean> {
  return writeSwitch(prisma, LOCAL_PASSWORD_SIGN_IN, isEnabled, actor, {
    action: "setting.update",
    details: { isEnabled },
  });
}

/**
 * Whether this account may sign in with its password now: always when the setting is on;
 * administrators only when it is off.
 */
export async function mayUsePassword(prisma: PrismaClient, userId: string): Promise<boolean> {
  if (await isLocalPasswordSignInEnabled(prisma)) return true;
  const user = await prisma.user.findUnique({ where: { id: userId }, select: { isAdmin: true } });
  // TRAP: docs/behaviour.md §12 — with password sign-in off, only administrators (break-glass) may use one.
  return user?.isAdmin === true;
}

// The "auth.localPasswordSignIn" setting: whether people sign in with a Hyperlens password at all,
// or only through an identity provider. Administrators keep password sign-in either way — the way
// back in when the provider is down or misconfigured (docs/security.md "Single sign-on").
import type { PrismaClient } from "@hyperlens/db";
import type { Viewer } from "../auth/viewer.ts";
import { recordAudit } from "../services/audit.ts";

/** The AppSetting key. */
export const LOCAL_PASSWORD_SIGN_IN = "auth.localPasswordSignIn";

/** True unless an administrator turned password sign-in off (the default is on). */
export async function isLocalPasswordSignInEnabled(prisma: PrismaClient): Promise<boolean> {
  const row = await prisma.appSetting.findUnique({ where: { key: LOCAL_PASSWORD_SIGN_IN } });
  return row?.value !== false;
}

/** Turns password sign-in on or off for everyone but administrators. */
export async function setLocalPasswordSignIn(
  prisma: PrismaClient,
  isEnabled: boolean,
  actor: Viewer | null,
): Promise<boolean> {
  await prisma.$transaction(async (tx) => {
    await tx.appSetting.upsert({
      where: { key: LOCAL_PASSWORD_SIGN_IN },
      create: { key: LOCAL_PASSWORD_SIGN_IN, value: isEnabled },
      update: { value: isEnabled },
    });
    await recordAudit(tx, actor, {
      action: "setting.update",
      targetType: "app_setting",
      targetId: LOCAL_PASSWORD_SIGN_IN,
      details: { isEnabled },
    });
  });
  return isEnabled;
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

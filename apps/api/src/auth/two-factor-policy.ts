// Whether the administrator requires two-factor for every local account (docs/behaviour.md §12),
// read where a session is turned into a viewer, so a session of a user who has not enrolled yet
// can do nothing but enrol.
import type { Prisma, PrismaClient } from "@hyperlens/db";

/** The AppSetting key of "require two-factor for everyone" (a JSON boolean). */
export const REQUIRE_TWO_FACTOR_SETTING = "auth.requireTwoFactor";

type Reader = PrismaClient | Prisma.TransactionClient;

/** True when the administrator requires two-factor for every local password account. */
export async function isTwoFactorRequired(prisma: Reader): Promise<boolean> {
  const row = await prisma.appSetting.findUnique({ where: { key: REQUIRE_TWO_FACTOR_SETTING } });
  return row?.value === true;
}

/**
 * True when a session must enrol before it may do anything else: a local password account
 * (single sign-on accounts rely on their provider) signed in with its password, without
 * two-factor, while the administrator requires it.
 */
export async function mustEnrolTwoFactor(
  prisma: Reader,
  user: { passwordHash: string | null; totpEnabledAt: Date | null },
  method: string,
): Promise<boolean> {
  if (user.totpEnabledAt || !user.passwordHash || method !== "password") return false;
  return isTwoFactorRequired(prisma);
}

// Whether the administrator requires two-factor for every local account (docs/behaviour.md §12),
// read where a session is turned into a viewer, so a session of a user who has not enrolled yet
// can do nothing but enrol.
import type { Prisma, PrismaClient } from "@hyperlens/db";
import { REQUIRE_TWO_FACTOR, readSwitch } from "../services/app-settings.ts";

type Reader = PrismaClient | Prisma.TransactionClient;

/** True when the administrator requires two-factor for every local password account. */
export function isTwoFactorRequired(prisma: Reader): Promise<boolean> {
  return readSwitch(prisma, REQUIRE_TWO_FACTOR);
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

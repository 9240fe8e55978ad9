// Instance-wide switches an administrator flips on the settings page (the AppSetting table): a JSON
// boolean under one key each, read with its default, written together with an audit entry.
import type { Prisma, PrismaClient } from "@hyperlens/db";
import type { Viewer } from "../auth/viewer.ts";
import { recordAudit } from "./audit.ts";

/** One switch: its key in the AppSetting table and its value while nobody has set it. */
export interface AppSwitch {
  key: string;
  defaultValue: boolean;
}

/** Whether people sign in with a Hyperlens password at all (administrators always may). */
export const LOCAL_PASSWORD_SIGN_IN: AppSwitch = {
  key: "auth.localPasswordSignIn",
  defaultValue: true,
};

/** Whether every local password account must use two-factor. */
export const REQUIRE_TWO_FACTOR: AppSwitch = { key: "auth.requireTwoFactor", defaultValue: false };

type Reader = PrismaClient | Prisma.TransactionClient;

/** The switch's value; anything but a JSON boolean counts as unset. */
export async function readSwitch(prisma: Reader, setting: AppSwitch): Promise<boolean> {
  const row = await prisma.appSetting.findUnique({ where: { key: setting.key } });
  return typeof row?.value === "boolean" ? row.value : setting.defaultValue;
}

/** Sets the switch and writes `audit.action` with the new value, in one transaction. */
export async function writeSwitch(
  prisma: PrismaClient,
  setting: AppSwitch,
  value: boolean,
  actor: Viewer | null,
  audit: { action: string; details: Prisma.InputJsonObject },
): Promise<boolean> {
  await prisma.$transaction(async (tx) => {
    await tx.appSetting.upsert({
      where: { key: setting.key },
      create: { key: setting.key, value },
      update: { value },
    });
    await recordAudit(tx, actor, {
      action: audit.action,
      targetType: "app_setting",
      targetId: setting.key,
      details: audit.details,
    });
  });
  return value;
}

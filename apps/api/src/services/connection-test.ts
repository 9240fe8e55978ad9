// The connection Test: logs in and reads something small, and tells the administrator the real
// reason when that fails.
import { randomUUID } from "node:crypto";
import { isHyperError } from "@hyperlens/hyper-http";
import type { AppServices } from "../context.ts";
import { NotFoundError, SecretUnreadableError } from "../errors.ts";
import { findConnection, readConnectionSecret } from "./connections.ts";
import { openHypervisorSession } from "./hypervisor-session.ts";

/** What Test tells the administrator. */
export interface TestResult {
  ok: boolean;
  errorClass: string | null;
  message: string;
}

/** Logs in and reads something small; reports the real reason on failure. */
export async function testConnection(services: AppServices, id: string): Promise<TestResult> {
  const connection = await findConnection(services.prisma, id);
  try {
    const secret = await readConnectionSecret(services.prisma, services.secrets, id);
    const session = openHypervisorSession(services, connection, secret, randomUUID());
    try {
      const { summary, privilegeWarning = null } = await session.test();
      await services.prisma.connection.update({ where: { id }, data: { privilegeWarning } });
      return {
        ok: true,
        errorClass: null,
        message: privilegeWarning ? `${summary} Warning: ${privilegeWarning}` : summary,
      };
    } finally {
      await session.close();
    }
  } catch (error) {
    if (isHyperError(error))
      return { ok: false, errorClass: error.errorClass, message: error.message };
    if (error instanceof NotFoundError)
      return { ok: false, errorClass: "config", message: error.message };
    if (error instanceof SecretUnreadableError)
      return { ok: false, errorClass: error.errorClass, message: error.message };
    throw error;
  }
}

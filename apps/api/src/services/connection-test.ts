// The connection Test: logs in and reads something small, and tells the administrator the real
// reason when that fails. It tests a saved connection, or what a connection form holds before it
// is saved (checked as a save checks it, nothing written).
import { randomUUID } from "node:crypto";
import type { Connection, ConnectionKind } from "@hyperlens/db";
import { isHyperError } from "@hyperlens/hyper-http";
import { englishText, errorText, type ServerText, serverText } from "@hyperlens/shared";
import type { Viewer } from "../auth/viewer.ts";
import type { AppServices } from "../context.ts";
import { NotFoundError, SecretUnreadableError } from "../errors.ts";
import {
  type ConnectionInput,
  checkConnectionInput,
  findConnection,
  readConnectionSecret,
} from "./connections.ts";
import { openHypervisorSession } from "./hypervisor-session.ts";

/** What Test tells the administrator. */
export interface TestResult {
  ok: boolean;
  errorClass: string | null;
  message: string;
  /** The message as a code and parameters, where the server has one (docs/behaviour.md §11.4). */
  text: ServerText | null;
}

/** Logs in and reads something small; reports the real reason on failure. */
export async function testConnection(services: AppServices, id: string): Promise<TestResult> {
  return reportFailure(async () => {
    const connection = await findConnection(services.prisma, id);
    const secret = await readConnectionSecret(services.prisma, services.secrets, id);
    const result = await loginAndRead(services, connection, secret);
    await services.prisma.connection.update({
      where: { id },
      data: { privilegeWarning: result.privilegeWarning },
    });
    return result;
  });
}

/**
 * Tests a connection form's input before it is saved. The input gets every check a save makes
 * (a ValidationError is thrown, not reported as a failed Test); nothing is written — not the
 * connection, not its secret, not a privilege warning. A blank secret on an edit uses the stored
 * one only where a save would keep it (same address, user and at least as strict TLS).
 */
export async function testConnectionInput(
  services: AppServices,
  kind: ConnectionKind,
  input: ConnectionInput,
  actor: Viewer | null,
): Promise<TestResult> {
  const checked = await checkConnectionInput(
    services.prisma,
    kind,
    input,
    actor,
    services.targetPolicy,
  );
  return reportFailure(async () => {
    const { existing, fields, newSecret } = checked;
    const connection: Connection = { ...(existing ?? unsavedConnection(kind)), ...fields };
    const secret =
      newSecret ??
      (existing ? await readConnectionSecret(services.prisma, services.secrets, existing.id) : "");
    return loginAndRead(services, connection, secret);
  });
}

/** A connection row that exists only for the length of a Test. */
function unsavedConnection(kind: ConnectionKind): Connection {
  const now = new Date();
  return {
    id: randomUUID(),
    kind,
    name: "",
    baseUrl: "",
    username: "",
    tokenId: null,
    isProvider: false,
    verifyTls: true,
    caPem: null,
    syncIntervalSeconds: 900,
    isActive: true,
    settings: {},
    addressRules: null,
    createdAt: now,
    updatedAt: now,
    lastSyncAt: null,
    lastLightPollAt: null,
    lastSyncOutcome: null,
    lastSyncMessage: null,
    lastSyncMessageTexts: null,
    lastSyncCounts: null,
    lastSuccessAt: null,
    consecutiveFailures: 0,
    lastErrorClass: null,
    privilegeWarning: null,
  };
}

async function loginAndRead(
  services: AppServices,
  connection: Connection,
  secret: string,
): Promise<TestResult & { privilegeWarning: string | null }> {
  const session = openHypervisorSession(services, connection, secret, randomUUID());
  try {
    const { summary, privilegeWarning = null } = await session.test();
    const text = privilegeWarning
      ? serverText("connectionTestWarning", { summary, warning: privilegeWarning })
      : summary;
    return { ok: true, errorClass: null, message: englishText(text), text, privilegeWarning };
  } finally {
    await session.close();
  }
}

/** Runs a Test, turning the failures an administrator can act on into its answer. */
async function reportFailure(test: () => Promise<TestResult>): Promise<TestResult> {
  try {
    const { ok, errorClass, message, text } = await test();
    return { ok, errorClass, message, text };
  } catch (error) {
    if (isHyperError(error)) {
      const text = errorText(error) ?? null;
      return { ok: false, errorClass: error.errorClass, message: error.message, text };
    }
    if (error instanceof NotFoundError)
      return { ok: false, errorClass: "config", message: error.message, text: null };
    if (error instanceof SecretUnreadableError)
      return { ok: false, errorClass: error.errorClass, message: error.message, text: null };
    throw error;
  }
}

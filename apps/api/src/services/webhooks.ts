// Webhook endpoints (docs/behaviour.md §14.20–§14.29): administrators register where the change
// feed is delivered. The signing secret is made here, shown once (on create and on rotation) and
// stored sealed like a connection secret. Every change is audited; no secret ever is.
import { randomUUID } from "node:crypto";
import type { InventoryEventType, PrismaClient, SecretBox, WebhookEndpoint } from "@hyperlens/db";
import type { TargetAddressPolicy } from "@hyperlens/hyper-http";
import type { Viewer } from "../auth/viewer.ts";
import { NotFoundError, ValidationError } from "../errors.ts";
import type { WebhookDispatcher } from "../webhooks/dispatcher.ts";
import { checkWebhookUrl } from "../webhooks/endpoint-url.ts";
import { testEvent } from "../webhooks/payload.ts";
import type { AttemptResult } from "../webhooks/sender.ts";
import { generateWebhookSecret, webhookSecretContext } from "../webhooks/signature.ts";
import { recordAudit } from "./audit.ts";

const MAX_DESCRIPTION = 1000;

/** What an administrator sets; on update, a field left out keeps its value. */
export interface WebhookInput {
  url?: string | null | undefined;
  description?: string | null | undefined;
  eventTypes?: readonly InventoryEventType[] | null | undefined;
  connectionIds?: readonly string[] | null | undefined;
  isEnabled?: boolean | null | undefined;
}

/** An endpoint with its secret in clear: returned by create and rotate only, never stored so. */
export interface EndpointWithSecret {
  endpoint: WebhookEndpoint;
  secret: string;
}

/** The address as the audit log keeps it: no query string (it may carry a receiver's token). */
function auditedUrl(url: string): string {
  const parsed = new URL(url);
  return `${parsed.origin}${parsed.pathname}`;
}

async function checkedFields(
  prisma: PrismaClient,
  input: WebhookInput,
  policy: TargetAddressPolicy,
  isNew: boolean,
) {
  const problems: { field: string; message: string }[] = [];
  const url = input.url?.trim();
  if (url !== undefined || isNew) {
    const problem = url ? await checkWebhookUrl(url, policy) : "Enter the receiver's address.";
    if (problem) problems.push({ field: "url", message: problem });
  }
  const description = input.description?.trim();
  if (description !== undefined && description.length > MAX_DESCRIPTION)
    problems.push({
      field: "description",
      message: `Use at most ${MAX_DESCRIPTION} characters.`,
    });
  const connectionIds = input.connectionIds ? [...new Set(input.connectionIds)] : undefined;
  if (connectionIds?.length) {
    const found = await prisma.connection.count({ where: { id: { in: connectionIds } } });
    if (found !== connectionIds.length)
      problems.push({
        field: "connectionIds",
        message: "One of the chosen connections does not exist (any more).",
      });
  }
  if (problems.length) throw ValidationError.of(problems);
  return {
    ...(url !== undefined ? { url } : {}),
    ...(description !== undefined ? { description } : {}),
    ...(input.eventTypes ? { eventTypes: [...new Set(input.eventTypes)] } : {}),
    ...(connectionIds ? { connectionIds } : {}),
    ...(input.isEnabled !== null && input.isEnabled !== undefined
      ? { isEnabled: input.isEnabled }
      : {}),
  };
}

/**
 * Registers an endpoint. It is delivered the events appended from now on: its cursor starts at
 * the feed's newest sequence, so a new endpoint is not flooded with the whole history.
 */
export async function createWebhook(
  prisma: PrismaClient,
  secrets: SecretBox,
  policy: TargetAddressPolicy,
  input: WebhookInput,
  actor: Viewer | null,
): Promise<EndpointWithSecret> {
  const fields = await checkedFields(prisma, input, policy, true);
  const id = randomUUID();
  const secret = generateWebhookSecret();
  const sealed = secrets.seal(secret, webhookSecretContext(id));
  const endpoint = await prisma.$transaction(async (tx) => {
    const [{ newest }] = await tx.$queryRaw<[{ newest: bigint }]>`
      SELECT coalesce(max(sequence), 0) AS newest FROM inventory_events`;
    const created = await tx.webhookEndpoint.create({
      data: {
        id,
        url: fields.url ?? "",
        ...fields,
        secretCiphertext: sealed.ciphertext,
        secretKeyId: sealed.keyId,
        cursor: newest,
      },
    });
    await recordAudit(tx, actor, {
      action: "webhook.create",
      targetType: "webhook",
      targetId: id,
      details: {
        url: auditedUrl(created.url),
        eventTypes: created.eventTypes,
        connectionIds: created.connectionIds,
        isEnabled: created.isEnabled,
      },
    });
    return created;
  });
  return { endpoint, secret };
}

async function existingWebhook(prisma: PrismaClient, id: string): Promise<WebhookEndpoint> {
  const endpoint = await prisma.webhookEndpoint.findUnique({ where: { id } });
  if (!endpoint) throw new NotFoundError("No such webhook.");
  return endpoint;
}

/**
 * Changes an endpoint. Turning it on again, or pointing it elsewhere, clears its failure state
 * so the event after its cursor is tried at once; the cursor stays (nothing is skipped).
 */
export async function updateWebhook(
  prisma: PrismaClient,
  policy: TargetAddressPolicy,
  id: string,
  input: WebhookInput,
  actor: Viewer | null,
): Promise<WebhookEndpoint> {
  const existing = await existingWebhook(prisma, id);
  const fields = await checkedFields(prisma, input, policy, false);
  const isReenabled = fields.isEnabled === true && !existing.isEnabled;
  const isRepointed = fields.url !== undefined && fields.url !== existing.url;
  const changed = Object.keys(fields).filter(
    (key) =>
      JSON.stringify(fields[key as keyof typeof fields]) !==
      JSON.stringify(existing[key as keyof WebhookEndpoint]),
  );
  return prisma.$transaction(async (tx) => {
    const endpoint = await tx.webhookEndpoint.update({
      where: { id },
      data: {
        ...fields,
        ...(fields.isEnabled === false ? { disabledReason: null } : {}),
        ...(isReenabled || isRepointed
          ? {
              attempt: 0,
              firstAttemptAt: null,
              nextAttemptAt: null,
              failingSince: null,
              disabledReason: null,
            }
          : {}),
      },
    });
    await recordAudit(tx, actor, {
      action: "webhook.update",
      targetType: "webhook",
      targetId: id,
      details: { url: auditedUrl(endpoint.url), changed },
    });
    return endpoint;
  });
}

/** Deletes an endpoint and its delivery log; an attempt under way ends with nothing to update. */
export async function deleteWebhook(
  prisma: PrismaClient,
  id: string,
  actor: Viewer | null,
): Promise<void> {
  const existing = await existingWebhook(prisma, id);
  await prisma.$transaction(async (tx) => {
    await tx.webhookEndpoint.delete({ where: { id } });
    await recordAudit(tx, actor, {
      action: "webhook.delete",
      targetType: "webhook",
      targetId: id,
      details: { url: auditedUrl(existing.url) },
    });
  });
}

/** Replaces the signing secret; the old one stops signing at once. The new one is shown once. */
export async function rotateWebhookSecret(
  prisma: PrismaClient,
  secrets: SecretBox,
  id: string,
  actor: Viewer | null,
): Promise<EndpointWithSecret> {
  await existingWebhook(prisma, id);
  const secret = generateWebhookSecret();
  const sealed = secrets.seal(secret, webhookSecretContext(id));
  const endpoint = await prisma.$transaction(async (tx) => {
    const updated = await tx.webhookEndpoint.update({
      where: { id },
      data: { secretCiphertext: sealed.ciphertext, secretKeyId: sealed.keyId },
    });
    await recordAudit(tx, actor, {
      action: "webhook.rotateSecret",
      targetType: "webhook",
      targetId: id,
      details: { url: auditedUrl(updated.url) },
    });
    return updated;
  });
  return { endpoint, secret };
}

/** Sends a test event now (outside the feed's order), logs and audits it, returns how it went. */
export async function sendTestWebhook(
  prisma: PrismaClient,
  dispatcher: WebhookDispatcher,
  id: string,
  actor: Viewer | null,
): Promise<AttemptResult> {
  const endpoint = await existingWebhook(prisma, id);
  const result = await dispatcher.sendTest(endpoint, testEvent(new Date()));
  await recordAudit(prisma, actor, {
    action: "webhook.sendTest",
    targetType: "webhook",
    targetId: id,
    details: { url: auditedUrl(endpoint.url), statusCode: result.statusCode },
  });
  return result;
}

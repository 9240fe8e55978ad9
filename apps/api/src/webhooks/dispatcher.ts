// Delivers the change feed to every enabled webhook endpoint (docs/behaviour.md §14.22–§14.26):
// per endpoint, in sequence order, one event per request, at least once. An endpoint's state
// (cursor, attempt, next attempt) is on its row, and a lease on the row (leaseHolder,
// leaseExpiresAt; the database's clock decides expiry, as for sync leases) lets one replica at a
// time deliver to it.
import type { PrismaClient, SecretBox, WebhookEndpoint } from "@hyperlens/db";
import type { TargetAddressPolicy } from "@hyperlens/hyper-http";
import type { Logger } from "../logger.ts";
import { recordDelivery, trimDeliveryLog } from "./delivery-log.ts";
import { type FeedEvent, nextFeedEvents } from "./payload.ts";
import { backoffMs, DEFAULT_RETRY_SCHEDULE, type RetrySchedule } from "./retry-schedule.ts";
import { type AttemptResult, createWebhookSender } from "./sender.ts";
import { webhookSecretContext } from "./signature.ts";

/** Events read from the feed at once per endpoint. */
const EVENT_PAGE = 100;
/** Successful deliveries between two trims of the log (a failure trims at once). */
const TRIM_EVERY = 20;
/** Successful deliveries recorded at once, at the latest after {@link RECORD_AFTER_MS}. */
const RECORD_EVERY = 100;
const RECORD_AFTER_MS = 1000;

/** An event a receiver answered 2xx, not yet recorded. */
interface Delivered {
  eventId: string;
  sequence: bigint;
  type: string;
  at: Date;
  attempt: number;
  result: AttemptResult;
}

export interface WebhookDispatcherOptions {
  prisma: PrismaClient;
  secrets: SecretBox;
  logger: Logger;
  policy: TargetAddressPolicy;
  /** This replica's lease holder name. */
  holder: string;
  schedule?: Partial<RetrySchedule>;
  /**
   * How often endpoints are checked for new events besides being woken by a notice (a sync in
   * another process without Redis sends none). A retry falling due sooner wakes a pass itself.
   */
  pollMs?: number;
  /** How long a lease lasts without a delivery renewing it. */
  leaseMs?: number;
  /** Per request: connect, headers and body each. */
  timeoutMs?: number;
  /** Delivery-log rows kept per endpoint. */
  deliveryLogLimit?: number;
  /** The clock retries, give-ups and disabling are judged by (tests move it). */
  now?: () => Date;
  /** The jitter draw, in [0, 1). */
  random?: () => number;
}

export interface WebhookDispatcher {
  /** Starts the passes; deliveries run in the background until {@link stop}. */
  start(): void;
  /** Looks for due work now (new events were appended). */
  wake(): void;
  /** One pass over the due endpoints; resolves when their deliveries are done or wait. */
  runOnce(): Promise<void>;
  /** Sends a test event to an endpoint now, outside its order, and logs the attempt. */
  sendTest(endpoint: WebhookEndpoint, event: FeedEvent): Promise<AttemptResult>;
  /** Stops polling, waits for the deliveries under way and gives their leases up. */
  stop(): Promise<void>;
}

export function createWebhookDispatcher(options: WebhookDispatcherOptions): WebhookDispatcher {
  const { prisma, secrets, logger, holder } = options;
  const schedule = { ...DEFAULT_RETRY_SCHEDULE, ...options.schedule };
  const pollMs = options.pollMs ?? 10_000;
  const leaseMs = options.leaseMs ?? 60_000;
  const timeoutMs = options.timeoutMs ?? 10_000;
  const logLimit = options.deliveryLogLimit ?? 100;
  const now = options.now ?? (() => new Date());
  const random = options.random ?? Math.random;
  const sender = createWebhookSender(options.policy, { timeoutMs });
  let isStopping = false;
  let timer: NodeJS.Timeout | undefined;
  let pass: Promise<void> | undefined;
  let isWoken = false;
  let stopping: Promise<void> | undefined;

  async function acquire(id: string): Promise<WebhookEndpoint | undefined> {
    // TRAP: docs/behaviour.md §14.25 — one statement decides, so two replicas racing for a free
    // or expired lease cannot both deliver (and reorder) the same endpoint's events.
    const rows = await prisma.$queryRaw<WebhookEndpoint[]>`
      UPDATE webhook_endpoints SET "leaseHolder" = ${holder},
        "leaseExpiresAt" = now() + ${leaseMs}::int * interval '1 millisecond'
      WHERE id = ${id}::uuid AND "isEnabled"
        AND ("leaseExpiresAt" IS NULL OR "leaseExpiresAt" < now() OR "leaseHolder" = ${holder})
      RETURNING *`;
    return rows[0];
  }

  async function release(id: string): Promise<void> {
    await prisma.$executeRaw`
      UPDATE webhook_endpoints SET "leaseHolder" = NULL, "leaseExpiresAt" = NULL
      WHERE id = ${id}::uuid AND "leaseHolder" = ${holder}`;
  }

  /**
   * Records deliveries already answered 2xx: moves the endpoint's cursor past the last of them,
   * renews the lease and logs each, in one statement. Undefined when the lease was lost or the
   * endpoint disabled meanwhile.
   */
  async function recordDelivered(
    endpoint: WebhookEndpoint,
    delivered: readonly Delivered[],
  ): Promise<WebhookEndpoint | undefined> {
    const last = delivered.at(-1);
    if (!last) return endpoint;
    const column = <T>(pick: (d: Delivered) => T) => delivered.map(pick);
    const rows = await prisma.$queryRaw<WebhookEndpoint[]>`
      WITH moved AS (
        UPDATE webhook_endpoints SET cursor = ${last.sequence}::bigint, attempt = 0,
          "firstAttemptAt" = NULL, "nextAttemptAt" = NULL, "failingSince" = NULL,
          "leaseExpiresAt" = now() + ${leaseMs}::int * interval '1 millisecond'
        WHERE id = ${endpoint.id}::uuid AND "leaseHolder" = ${holder} AND "isEnabled"
        RETURNING *
      ), logged AS (
        INSERT INTO webhook_deliveries (id, "endpointId", at, "eventId", "eventSequence",
          "eventType", attempt, outcome, "statusCode", "latencyMs", error)
        SELECT gen_random_uuid(), moved.id, d.at, d.event, d.sequence, d.type, d.attempt,
          'DELIVERED', d.status, d.latency, NULL
        FROM moved, unnest(${column((d) => d.at)}::timestamptz[], ${column((d) => d.eventId)}::uuid[],
          ${column((d) => d.sequence)}::bigint[], ${column((d) => d.type)}::text[],
          ${column((d) => d.attempt)}::int[], ${column((d) => d.result.statusCode)}::int[],
          ${column((d) => d.result.latencyMs)}::int[])
          AS d(at, event, sequence, type, attempt, status, latency)
      )
      SELECT * FROM moved`;
    return rows[0];
  }

  async function recordFailure(endpoint: WebhookEndpoint, event: FeedEvent, at: Date) {
    const attempt = endpoint.attempt + 1;
    const firstAttemptAt = endpoint.firstAttemptAt ?? at;
    const failingSince = endpoint.failingSince ?? at;
    const isGivenUp = at.getTime() - firstAttemptAt.getTime() >= schedule.giveUpAfterMs;
    // TRAP: docs/behaviour.md §14.26 — without this a dead receiver is retried for ever, and
    // every event is given up one by one, a day each.
    const isDisabled = at.getTime() - failingSince.getTime() >= schedule.disableAfterMs;
    const sequence = event.sequence ?? endpoint.cursor;
    if (isGivenUp) {
      logger.warn(
        {
          webhookId: endpoint.id,
          eventId: event.id,
          sequence: String(sequence),
          attempts: attempt,
        },
        "Webhook event given up: it failed for longer than the retry period",
      );
    }
    if (isDisabled) {
      logger.warn(
        { webhookId: endpoint.id, failingSince },
        "Webhook endpoint disabled: its deliveries failed without a success for too long",
      );
    }
    const nextAttemptAt = isGivenUp
      ? null
      : new Date(at.getTime() + backoffMs(schedule, attempt, random));
    const days = Math.round(schedule.disableAfterMs / 86_400_000);
    await prisma.webhookEndpoint.updateMany({
      where: { id: endpoint.id, leaseHolder: holder },
      data: {
        failingSince,
        ...(isGivenUp
          ? { cursor: sequence, attempt: 0, firstAttemptAt: null, nextAttemptAt }
          : { attempt, firstAttemptAt, nextAttemptAt }),
        ...(isDisabled
          ? {
              isEnabled: false,
              disabledReason: `Disabled by the server: every delivery failed for ${days === 0 ? "too long" : `${days} day(s)`}.`,
            }
          : {}),
      },
    });
    return { attempt, isGivenUp };
  }

  async function deliverEndpoint(id: string): Promise<void> {
    let endpoint = await acquire(id);
    if (!endpoint) return;
    // Events are read a page at a time, and the secret opened once; an edit of the endpoint
    // (its filter, its secret) seen when deliveries are recorded drops both.
    let page: FeedEvent[] = [];
    let pageOf = Number.NaN;
    let secret = "";
    // TRAP: docs/behaviour.md §14.23 — 2xx answers are recorded (the cursor moved past them) a
    // batch at a time: a crash before the record sends them again, which at least once allows.
    let delivered: Delivered[] = [];
    let recordedAt = Date.now();
    let untrimmed = 0;
    const record = async () => {
      if (!endpoint || delivered.length === 0) return;
      untrimmed += delivered.length;
      endpoint = await recordDelivered(endpoint, delivered);
      delivered = [];
      recordedAt = Date.now();
      if (untrimmed >= TRIM_EVERY) {
        await trimDeliveryLog(prisma, id, logLimit);
        untrimmed = 0;
      }
    };
    try {
      while (endpoint && !isStopping) {
        if (endpoint.nextAttemptAt && endpoint.nextAttemptAt > now()) return;
        if (endpoint.updatedAt.getTime() !== pageOf) {
          pageOf = endpoint.updatedAt.getTime();
          page = [];
          secret = secrets.open(endpoint.secretCiphertext, webhookSecretContext(endpoint.id));
        }
        if (page.length === 0) {
          const after = delivered.at(-1)?.sequence ?? endpoint.cursor;
          page = await nextFeedEvents(prisma, { ...endpoint, cursor: after }, EVENT_PAGE);
        }
        const event = page.shift();
        if (!event?.sequence) return;
        const at = now();
        const result = await sender.send(endpoint.url, secret, event);
        if (result.isDelivered) {
          const attempt = delivered.length === 0 ? endpoint.attempt + 1 : 1;
          delivered.push({
            eventId: event.id,
            sequence: event.sequence,
            type: event.type,
            at,
            attempt,
            result,
          });
          if (delivered.length >= RECORD_EVERY || Date.now() - recordedAt >= RECORD_AFTER_MS)
            await record();
          continue;
        }
        await record();
        if (!endpoint) return;
        const failed = await recordFailure(endpoint, event, at);
        await recordDelivery(prisma, endpoint.id, event, {
          ...result,
          at,
          attempt: failed.attempt,
          outcome: failed.isGivenUp ? "GAVE_UP" : "FAILED",
        });
        await trimDeliveryLog(prisma, endpoint.id, logLimit);
        untrimmed = 0;
        return;
      }
    } catch (error) {
      logger.error({ err: error, webhookId: id }, "Webhook delivery failed unexpectedly");
    } finally {
      await record().catch((error) =>
        logger.error({ err: error, webhookId: id }, "Webhook deliveries could not be recorded"),
      );
      if (untrimmed > 0) await trimDeliveryLog(prisma, id, logLimit).catch(() => undefined);
      await release(id).catch(() => undefined);
    }
  }

  async function dueEndpoints(): Promise<string[]> {
    const rows = await prisma.$queryRaw<{ id: string }[]>`
      SELECT e.id FROM webhook_endpoints e
      WHERE e."isEnabled"
        AND (e."nextAttemptAt" IS NULL OR e."nextAttemptAt" <= ${now()})
        AND (e."leaseExpiresAt" IS NULL OR e."leaseExpiresAt" < now())
        AND EXISTS (
          SELECT 1 FROM inventory_events v WHERE v.sequence > e.cursor
            AND (cardinality(e."eventTypes") = 0 OR v.type::text = ANY(e."eventTypes"))
            AND (cardinality(e."connectionIds") = 0 OR v."connectionId"::text = ANY(e."connectionIds")))`;
    return rows.map((row) => row.id);
  }

  /**
   * Milliseconds until the earliest retry the pass that started at `passStart` did not see falls
   * due (0 when it already has), if any waits. A retry due before the pass started was seen and
   * left (another replica's lease, no matching event): it waits for the poll, or the passes would
   * follow one another without pause. One that fell due during the pass — its failure was
   * recorded after a slow answer — is taken at once, not left for the poll.
   */
  async function untilNextRetryMs(passStart: Date): Promise<number | undefined> {
    const [row] = await prisma.$queryRaw<{ due: Date | null }[]>`
      SELECT min("nextAttemptAt") AS due FROM webhook_endpoints
      WHERE "isEnabled" AND "nextAttemptAt" > ${passStart}`;
    return row?.due ? Math.max(0, row.due.getTime() - now().getTime()) : undefined;
  }

  async function runOnce(): Promise<void> {
    const ids = await dueEndpoints();
    await Promise.all(ids.map((id) => deliverEndpoint(id)));
  }

  /** A pass, then how long to wait before the next one when nothing wakes the dispatcher. */
  async function passThenWait(): Promise<number> {
    const passStart = now();
    await runOnce();
    const retryMs = await untilNextRetryMs(passStart);
    return retryMs === undefined ? pollMs : Math.min(pollMs, retryMs);
  }

  function schedulePass(delayMs: number) {
    if (isStopping) return;
    clearTimeout(timer);
    timer = setTimeout(() => {
      isWoken = false;
      let waitMs = pollMs;
      pass = passThenWait()
        .then((ms) => {
          waitMs = ms;
        })
        .catch((error) => logger.error({ err: error }, "Webhook dispatch pass failed"))
        .finally(() => {
          pass = undefined;
          schedulePass(isWoken ? 0 : waitMs);
        });
    }, delayMs);
    timer.unref();
  }

  return {
    start: () => schedulePass(0),
    wake: () => {
      if (pass) isWoken = true;
      else if (timer && !isStopping) schedulePass(0);
    },
    runOnce,
    async sendTest(endpoint, event) {
      const at = now();
      const result = await sender.send(
        endpoint.url,
        secrets.open(endpoint.secretCiphertext, webhookSecretContext(endpoint.id)),
        event,
      );
      await recordDelivery(prisma, endpoint.id, event, {
        ...result,
        at,
        attempt: 1,
        outcome: result.isDelivered ? "DELIVERED" : "FAILED",
      });
      await trimDeliveryLog(prisma, endpoint.id, logLimit);
      return result;
    },
    stop() {
      stopping ??= (async () => {
        isStopping = true;
        clearTimeout(timer);
        await pass;
        await sender.close();
      })();
      return stopping;
    },
  };
}

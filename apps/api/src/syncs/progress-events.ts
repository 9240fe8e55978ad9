// Live progress of syncs, per connection and for all of them. In-process by default; through
// Redis when REDIS_URL is set, so a subscriber on one replica sees a sync running on another.
import { createRedisEventTarget } from "@graphql-yoga/redis-event-target";
import type { SyncProgressEvent } from "@hyperlens/shared";
import { createPubSub, type PubSubEvent } from "graphql-yoga";
import { Redis } from "ioredis";

/** A progress event with the connection and run it belongs to. */
export interface SyncProgress {
  connectionId: string;
  syncRunId: string | null;
  at: string;
  event: SyncProgressEvent;
}

/** A user's sessions or tokens changed (auth/revocation.ts): open subscriptions check again. */
export interface CredentialsChanged {
  userId: string;
}

/**
 * A sync committed change-feed events of this connection (docs/behaviour.md §14.7): a wake-up
 * only — subscribers read the rows themselves, so a lost or repeated notice loses or repeats none.
 */
export interface FeedAdvanced {
  connectionId: string;
}

/**
 * The pub/sub that carries sync progress, and the signal that a user's credentials changed (it
 * rides the same in-process or Redis pub/sub, so it reaches every replica progress reaches).
 */
export interface SyncEvents {
  publish(topic: "sync:connection", connectionId: string, event: SyncProgress): void;
  publish(topic: "sync:all", event: SyncProgress): void;
  publish(topic: "credentials:changed", event: CredentialsChanged): void;
  publish(topic: "feed:advanced", event: FeedAdvanced): void;
  subscribe(topic: "sync:connection", connectionId: string): AsyncIterable<SyncProgress>;
  subscribe(topic: "sync:all"): AsyncIterable<SyncProgress>;
  subscribe(topic: "credentials:changed"): AsyncIterable<CredentialsChanged>;
  subscribe(topic: "feed:advanced"): AsyncIterable<FeedAdvanced>;
  /** Disconnects from Redis (nothing to do in-process). */
  close(): Promise<void>;
}

/** Announces that a connection's change feed advanced (subscribers and webhooks read it). */
export function announceFeedAdvanced(events: Pick<SyncEvents, "publish">) {
  return (connectionId: string) => events.publish("feed:advanced", { connectionId });
}

/** Redis could not be reached at start-up; the message names the address, never a password. */
export class RedisStartupError extends Error {
  override name = "RedisStartupError";
}

/** Redis and the channel prefix of this install (several installs or test runs may share one). */
export interface RedisEventsOptions {
  url: string;
  prefix: string;
  onError?: (error: Error) => void;
}

type Topics = {
  [topic: `${string}sync:connection`]: [connectionId: string, event: SyncProgress];
  [topic: `${string}sync:all`]: [event: SyncProgress];
  [topic: `${string}credentials:changed`]: [event: CredentialsChanged];
  [topic: `${string}feed:advanced`]: [event: FeedAdvanced];
};

function describeRedis(url: string): string {
  try {
    const u = new URL(url);
    return `${u.hostname}:${u.port || 6379}`;
  } catch {
    return "the configured address";
  }
}

function wrap(
  pubsub: ReturnType<typeof createPubSub<Topics>>,
  prefix: string,
  close: () => Promise<void>,
): SyncEvents {
  const connectionTopic = `${prefix}sync:connection` as const;
  const allTopic = `${prefix}sync:all` as const;
  const credentialsTopic = `${prefix}credentials:changed` as const;
  const feedTopic = `${prefix}feed:advanced` as const;
  return {
    publish: (
      topic: string,
      ...args: [string, SyncProgress] | [SyncProgress] | [CredentialsChanged] | [FeedAdvanced]
    ) => {
      if (topic === "sync:connection" && args.length === 2) {
        pubsub.publish(connectionTopic, args[0], args[1]);
      } else if (topic === "sync:all" && args.length === 1) {
        pubsub.publish(allTopic, args[0] as SyncProgress);
      } else if (topic === "credentials:changed" && args.length === 1) {
        pubsub.publish(credentialsTopic, args[0] as CredentialsChanged);
      } else if (topic === "feed:advanced" && args.length === 1) {
        pubsub.publish(feedTopic, args[0] as FeedAdvanced);
      }
    },
    subscribe: (topic: string, connectionId?: string) => {
      if (topic === "credentials:changed") return pubsub.subscribe(credentialsTopic);
      if (topic === "feed:advanced") return pubsub.subscribe(feedTopic);
      return topic === "sync:connection" && connectionId !== undefined
        ? pubsub.subscribe(connectionTopic, connectionId)
        : pubsub.subscribe(allTopic);
    },
    close,
  } as SyncEvents;
}

/** The in-process progress pub/sub (one replica). */
export function createSyncEvents(): SyncEvents {
  return wrap(createPubSub<Topics>(), "", async () => {});
}

/** The progress pub/sub shared by every replica through Redis; waits until both links are up. */
export async function connectRedisSyncEvents(options: RedisEventsOptions): Promise<SyncEvents> {
  // Channels are not covered by ioredis's keyPrefix, so the prefix goes into the topic names.
  const connect = () =>
    new Redis(options.url, { lazyConnect: true, connectTimeout: 5_000, maxRetriesPerRequest: 3 });
  const publishClient = connect();
  const subscribeClient = connect();
  const onError = options.onError ?? (() => {});
  // An unreachable Redis later on is reported and retried by ioredis, not a process crash.
  publishClient.on("error", onError);
  subscribeClient.on("error", onError);
  const close = async () => {
    publishClient.disconnect();
    subscribeClient.disconnect();
  };
  try {
    await Promise.all([publishClient.connect(), subscribeClient.connect()]);
  } catch (error) {
    await close();
    throw new RedisStartupError(
      `Could not connect to Redis at ${describeRedis(options.url)}: ${(error as Error).message}`,
    );
  }
  const eventTarget = createRedisEventTarget<PubSubEvent<Topics, keyof Topics>>({
    publishClient,
    subscribeClient,
  });
  return wrap(createPubSub<Topics>({ eventTarget }), options.prefix, close);
}

/** Publishes one event to its connection's topic and the all-connections topic. */
export function publishProgress(events: SyncEvents, event: SyncProgress) {
  events.publish("sync:connection", event.connectionId, event);
  events.publish("sync:all", event);
}

/**
 * Publishes one credentials-changed signal through Redis and waits until Redis has taken it: for
 * the command line, which exits right after (the pub/sub's own publish does not wait). Same
 * channel and encoding as {@link connectRedisSyncEvents}'s `credentials:changed` topic.
 */
export async function publishCredentialsChangedOnce(
  options: RedisEventsOptions,
  event: CredentialsChanged,
): Promise<void> {
  const client = new Redis(options.url, {
    lazyConnect: true,
    connectTimeout: 5_000,
    maxRetriesPerRequest: 3,
  });
  client.on("error", options.onError ?? (() => {}));
  try {
    await client.connect();
    await client.publish(`${options.prefix}credentials:changed`, JSON.stringify(event));
  } catch (error) {
    throw new RedisStartupError(
      `Could not reach Redis at ${describeRedis(options.url)}: ${(error as Error).message}`,
    );
  } finally {
    client.disconnect();
  }
}

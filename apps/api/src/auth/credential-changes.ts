// When a user's sessions or tokens end — signed out everywhere else, a password changed or reset,
// a token revoked, the user disabled, demoted or deleted — their open subscriptions must not wait
// for the next periodic re-check (HYPERLENS_SUBSCRIPTION_RECHECK_SECONDS). This signal rides the
// pub/sub sync progress uses (Redis across replicas when REDIS_URL is set) and makes every replica
// check that user's open subscriptions again at once.
import type { SyncEvents } from "../syncs/progress-events.ts";

/** Announces and watches changes of users' credentials. */
export interface CredentialChanges {
  /** Tells every replica that `userId`'s credentials changed; call it once the change is committed. */
  announce(userId: string): void;
  /** Calls `onChange` whenever `userId`'s credentials are announced changed; returns the stop. */
  watch(userId: string, onChange: () => void): () => void;
  /** Stops listening. */
  close(): Promise<void>;
}

/** One listener per process on the pub/sub, handing each signal to that user's watchers. */
export function createCredentialChanges(events: SyncEvents): CredentialChanges {
  const watchers = new Map<string, Set<() => void>>();
  const iterator = events.subscribe("credentials:changed")[Symbol.asyncIterator]();
  const listening = (async () => {
    for (;;) {
      const step = await iterator.next().catch(() => ({ done: true as const, value: undefined }));
      if (step.done) return;
      for (const onChange of watchers.get(step.value.userId) ?? []) onChange();
    }
  })();
  return {
    announce: (userId) => events.publish("credentials:changed", { userId }),
    watch: (userId, onChange) => {
      const set = watchers.get(userId) ?? new Set();
      watchers.set(userId, set);
      set.add(onChange);
      return () => {
        set.delete(onChange);
        if (set.size === 0) watchers.delete(userId);
      };
    },
    close: async () => {
      await iterator.return?.();
      await listening;
    },
  };
}

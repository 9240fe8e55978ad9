// The "feed advanced" notice crosses replicas through Redis, so a subscriber on one replica wakes
// for a sync another replica ran. Needs REDIS_URL.
import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { connectRedisSyncEvents } from "./progress-events.ts";

const url = process.env.REDIS_URL;
if (!url) console.warn("SKIPPED feed-notices.test.ts: REDIS_URL not set.");

describe.skipIf(!url)("feed notices across replicas (docs/behaviour.md §14.7)", () => {
  it("a notice published on one replica reaches a subscriber on another", async () => {
    const options = { url: url ?? "", prefix: `feed-test-${randomUUID()}:` };
    const [publisher, subscriber] = await Promise.all([
      connectRedisSyncEvents(options),
      connectRedisSyncEvents(options),
    ]);
    try {
      const notices = subscriber.subscribe("feed:advanced")[Symbol.asyncIterator]();
      const first = notices.next();
      // Redis takes the subscription a moment after it is asked for: publish until it arrives.
      let isReceived = false;
      void first.then(() => {
        isReceived = true;
      });
      for (let i = 0; i < 50 && !isReceived; i += 1) {
        publisher.publish("feed:advanced", { connectionId: "c-1" });
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect((await first).value).toEqual({ connectionId: "c-1" });
      await notices.return?.();
    } finally {
      await Promise.all([publisher.close(), subscriber.close()]);
    }
  });
});

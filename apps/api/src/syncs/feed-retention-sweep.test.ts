import { rawTransaction } from "@hyperlens/db";
import { appendInventoryEvents } from "@hyperlens/sync";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config.ts";
import { startTestApp, type TestApp } from "../testing/test-app.ts";
import { startFeedRetentionSweep } from "./feed-retention-sweep.ts";

const DAY = 86_400_000;
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp();
});
afterAll(async () => app?.close());

describe("change-feed retention (docs/behaviour.md §14.8)", () => {
  it("keeps events 90 days unless HYPERLENS_FEED_RETENTION_DAYS says otherwise", () => {
    expect(loadConfig({}).feedRetentionMs).toBe(90 * DAY);
    expect(loadConfig({ HYPERLENS_FEED_RETENTION_DAYS: "7" }).feedRetentionMs).toBe(7 * DAY);
    expect(() => loadConfig({ HYPERLENS_FEED_RETENTION_DAYS: "0" })).toThrow(
      /HYPERLENS_FEED_RETENTION_DAYS: must be between 1 and 36500 days/,
    );
  });

  it("the sweep deletes events older than the retention and keeps the rest", async () => {
    const connectionId = crypto.randomUUID();
    const now = Date.now();
    const event = (name: string, ageDays: number) => ({
      type: "VM_ADDED" as const,
      connectionId,
      subjectName: name,
      data: {},
      at: new Date(now - ageDays * DAY),
    });
    await rawTransaction(app.services.prisma, (sql) =>
      appendInventoryEvents(sql, [event("old", 8), event("edge", 6.9), event("new", 0)]),
    );
    const sweep = startFeedRetentionSweep(app.services, 7 * DAY);
    await sweep.sweep();
    await sweep.stop();
    const left = await app.services.prisma.inventoryEvent.findMany({
      where: { connectionId },
      orderBy: { sequence: "asc" },
    });
    expect(left.map((e) => e.subjectName)).toEqual(["edge", "new"]);
  });
});

import { describe, expect, it } from "vitest";
import { connectionSummary } from "./connection-summary.ts";

const synced = { lastSyncAt: null, consecutiveFailures: 0 };

describe("a connection card's summary", () => {
  it("starts with the last sync for a viewer, who is not sent the user name", () => {
    const line = connectionSummary({ ...synced, username: null, tokenId: null }, "en");
    expect(line).toBe("Last sync: —");
    expect(line).not.toMatch(/^\s*·/);
  });

  it("names the login, token and failures for those who manage the connection", () => {
    const line = connectionSummary(
      { username: "hyperlens@pve", tokenId: "inventory", lastSyncAt: null, consecutiveFailures: 2 },
      "en",
    );
    expect(line).toBe("hyperlens@pve!inventory · Last sync: — · 2 failures in a row");
  });
});

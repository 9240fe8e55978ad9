import { describe, expect, it } from "vitest";
import { parseRoute } from "./router.ts";

describe("parseRoute", () => {
  it("finds the page from the first path segment", () => {
    expect(parseRoute("/settings/vcd", "").page).toBe("settings");
    expect(parseRoute("/help", "").page).toBe("help");
  });

  it("shows the Servers page for the root and for unknown paths such as /setup", () => {
    expect(parseRoute("/", "").page).toBe("servers");
    expect(parseRoute("/setup", "").page).toBe("servers");
    expect(parseRoute("/", "").isNamed).toBe(false);
    expect(parseRoute("/webhooks", "").isNamed).toBe(true);
  });

  it("reads a page's subpage, as the Servers page's what-changed view (docs/behaviour.md §9.51)", () => {
    expect(parseRoute("/servers/changes", "?since=24h").subpage).toBe("changes");
    expect(parseRoute("/servers", "").subpage).toBeUndefined();
    expect(parseRoute("/setup/changes", "").subpage).toBeUndefined();
  });

  it("keeps the query for filters", () => {
    expect(parseRoute("/servers", "?connection=abc").query.get("connection")).toBe("abc");
  });
});

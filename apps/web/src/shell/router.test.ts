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

  it("keeps the query for filters", () => {
    expect(parseRoute("/servers", "?connection=abc").query.get("connection")).toBe("abc");
  });
});

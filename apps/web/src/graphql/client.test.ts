import { describe, expect, it } from "vitest";
import { websocketUrl } from "./client.ts";

describe("websocketUrl", () => {
  it("uses the page's host and upgrades the scheme to match", () => {
    expect(websocketUrl({ protocol: "http:", host: "localhost:4000" })).toBe(
      "ws://localhost:4000/graphql",
    );
    expect(websocketUrl({ protocol: "https:", host: "inv.example" })).toBe(
      "wss://inv.example/graphql",
    );
  });
});

import { describe, expect, it } from "vitest";
import { canRunSync, DEFAULT_CAPABILITIES } from "./capabilities.ts";

describe("starting syncs", () => {
  it("is granted with view by default", () => {
    expect(DEFAULT_CAPABILITIES).toEqual(["VIEW_INVENTORY", "RUN_SYNC"]);
    expect(canRunSync(DEFAULT_CAPABILITIES)).toBe(true);
  });

  it("needs RUN_SYNC, and view besides (the run it answers with is inventory)", () => {
    expect(canRunSync(["VIEW_INVENTORY"])).toBe(false);
    expect(canRunSync(["RUN_SYNC", "MANAGE_PROXMOX"])).toBe(false);
  });
});

import { describe, expect, it } from "vitest";
import { FaultSwitches } from "./faults.ts";

describe("FaultSwitches", () => {
  it("string patterns are relative to the API base; * and {name} match one segment, ** several", () => {
    const faults = new FaultSwitches("/api2/json");
    faults.fail("/nodes/{node}/qemu/*/config", 500);
    faults.fail("/cluster/**", 503);
    expect(faults.take("GET", "/api2/json/nodes/pve1/qemu/100/config")?.action).toEqual(
      expect.objectContaining({ status: 500 }),
    );
    expect(faults.take("GET", "/api2/json/nodes/pve1/qemu/100/agent/x")).toBeUndefined();
    expect(faults.take("GET", "/api2/json/cluster/status")?.action).toEqual(
      expect.objectContaining({ status: 503 }),
    );
  });

  it("nth alone fires once on the Nth match; times alone fires on the first N; both combine", () => {
    const faults = new FaultSwitches();
    const third = faults.fail("/a", 500, { nth: 3 });
    const results = Array.from({ length: 5 }, () => faults.take("GET", "/a") !== undefined);
    expect(results).toEqual([false, false, true, false, false]);
    expect([third.matched, third.fired]).toEqual([5, 1]);

    const twice = new FaultSwitches();
    twice.reset("/b", { times: 2 });
    expect(Array.from({ length: 3 }, () => twice.take("GET", "/b") !== undefined)).toEqual([
      true,
      true,
      false,
    ]);

    const window = new FaultSwitches();
    window.hang("/c", { nth: 2, times: 2 });
    expect(Array.from({ length: 4 }, () => window.take("GET", "/c") !== undefined)).toEqual([
      false,
      true,
      true,
      false,
    ]);
  });

  it("filters by method, accepts a RegExp, and a removed switch stops firing", () => {
    const faults = new FaultSwitches("/api");
    const handle = faults.delay(/\/agent\//, 10, { method: "get" });
    expect(faults.take("POST", "/api/x/agent/y")).toBeUndefined();
    expect(faults.take("GET", "/api/x/agent/y")?.name).toBe(handle.name);
    handle.remove();
    expect(faults.take("GET", "/api/x/agent/y")).toBeUndefined();
  });

  it("the first firing switch wins, but every matching switch counts the request", () => {
    const faults = new FaultSwitches();
    const first = faults.fail("/a", 500, { times: 1 });
    const second = faults.fail("/a", 502);
    expect(faults.take("GET", "/a")?.name).toBe(first.name);
    expect(faults.take("GET", "/a")?.name).toBe(second.name);
    expect(second.matched).toBe(2);
  });
});

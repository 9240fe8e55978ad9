import { describe, expect, it } from "vitest";
import { shapeHistory } from "./inventory-history.ts";

const at = (minute: number) => new Date(Date.UTC(2026, 0, 1, 0, minute));
const sample = (connectionId: string, minute: number, vms: number) => ({
  connectionId,
  at: at(minute),
  vms,
  containers: 0,
  running: 0,
});

describe("shaping the history (docs/behaviour.md §9.50)", () => {
  it("samples at one instant make one point", () => {
    const [series] = shapeHistory(
      [
        { id: "a", kind: "VCD" },
        { id: "b", kind: "VCD" },
      ],
      [],
      [sample("a", 5, 1), sample("b", 5, 2)],
      at(0),
      at(10),
    );
    expect(series?.points.map((p) => [p.at, p.vms])).toEqual([[at(5), 3]]);
  });

  it("a long period keeps the last point of each equal slice, and always the latest", () => {
    const samples = Array.from({ length: 60 }, (_, minute) => sample("a", minute, minute));
    const [series] = shapeHistory([{ id: "a", kind: "PROXMOX" }], [], samples, at(0), at(60), 6);
    expect(series?.points.map((p) => p.vms)).toEqual([9, 19, 29, 39, 49, 59]);
  });
});

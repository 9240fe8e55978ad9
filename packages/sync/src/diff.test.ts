import { describe, expect, it } from "vitest";
import { diffVm, summarizeNeutralVm } from "./diff.ts";
import { makeVm } from "./testing/builders.ts";

describe("diffing two versions of a guest", () => {
  it("separates a move (list, node) from other changes, each with from and to", () => {
    const before = summarizeNeutralVm(makeVm(100), "pve1/qemu");
    const after = summarizeNeutralVm(
      makeVm(100, { location: { nodeName: "pve2", clusterName: "lab" }, cpuCount: 4 }),
      "pve2/qemu",
    );
    expect(diffVm(before, after)).toEqual({
      moved: {
        listKey: { from: "pve1/qemu", to: "pve2/qemu" },
        nodeName: { from: "pve1", to: "pve2" },
      },
      changed: { cpuCount: { from: 2, to: 4 } },
    });
  });

  it("summarizes NICs and IPs and compares details per top-level key", () => {
    const before = summarizeNeutralVm(makeVm(100), "l");
    const after = summarizeNeutralVm(
      makeVm(100, { ips: [], details: { common: { firmware: "ovmf" }, raw: { ostype: "l26" } } }),
      "l",
    );
    expect(diffVm(before, after).changed).toEqual({
      ips: { from: ["10.0.0.100/24 (AGENT)"], to: [] },
      "details.common": { from: { firmware: "seabios" }, to: { firmware: "ovmf" } },
    });
  });

  it("finds nothing between equal guests", () => {
    const summary = summarizeNeutralVm(makeVm(100), "l");
    expect(diffVm(summary, summarizeNeutralVm(makeVm(100), "l"))).toEqual({
      moved: {},
      changed: {},
    });
  });
});

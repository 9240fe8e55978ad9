import { describe, expect, it } from "vitest";
import { type RulesPreview, unlistedChangeCount } from "./rules-preview.ts";

const preview = (changedVmCount: number, listed: number, isTruncated: boolean): RulesPreview => ({
  vmCount: 500,
  changedVmCount,
  addedCount: 0,
  droppedCount: changedVmCount,
  primaryChangedCount: 0,
  isTruncated,
  changes: Array.from({ length: listed }, (_, i) => ({
    vm: { id: `vm${i}`, name: `vm-${i}`, connection: { name: "pve" } },
    added: [],
    dropped: [
      {
        address: `10.99.0.${i}`,
        rule: "IGNORED_SUBNET",
        reason: "in 10.99.0.0/16",
        reasonText: null,
      },
    ],
    primaryBefore: null,
    primaryAfter: null,
  })),
});

describe("unlistedChangeCount (docs/behaviour.md §9.41)", () => {
  it("counts the changed guests a truncated preview does not list", () => {
    expect(unlistedChangeCount(preview(240, 100, true))).toBe(140);
  });

  it("is none when every changed guest is listed", () => {
    expect(unlistedChangeCount(preview(3, 3, false))).toBe(0);
  });
});

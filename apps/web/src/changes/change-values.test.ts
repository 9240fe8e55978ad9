import { localizedMessage, serverText } from "@hyperlens/shared";
import { afterEach, describe, expect, it } from "vitest";
import { setLanguage } from "../i18n/i18n.ts";
import { fieldChanges, removalReason, valueText } from "./change-values.ts";

describe("what changed, as text (docs/behaviour.md §9.51)", () => {
  afterEach(() => setLanguage("en"));

  it("lists each field with its values, by field name", () => {
    expect(
      fieldChanges({ state: { from: "RUNNING", to: "STOPPED" }, cpuCount: { from: null, to: 4 } }),
    ).toEqual([
      ["cpuCount", "—", "4"],
      ["state", "RUNNING", "STOPPED"],
    ]);
    expect(fieldChanges(null)).toEqual([]);
  });

  it("cuts long values and writes others as JSON", () => {
    expect(valueText(["a", "b"])).toBe('["a","b"]');
    expect(valueText("x".repeat(200))).toHaveLength(80);
  });

  it("reads a removal's reason", () => {
    expect(removalReason({ reason: "not in the list" })).toBe("not in the list");
    expect(removalReason({})).toBeUndefined();
  });

  it("says a removal's reason in the viewer's language where it came as a code (docs/behaviour.md §11.4)", async () => {
    const reasonText = localizedMessage(serverText("removalNotInList", { list: "pve1/qemu" }));
    const changes = { reason: "not in list pve1/qemu" };
    expect(removalReason(changes, reasonText)).toBe("not in list pve1/qemu");
    await setLanguage("de");
    expect(removalReason(changes, reasonText)).toBe("nicht in der Liste pve1/qemu");
    expect(removalReason(changes, null)).toBe("not in list pve1/qemu");
  });
});

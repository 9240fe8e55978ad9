import { VM_LOCATION_FIELDS, VM_OTHER_FIELDS } from "@hyperlens/shared";
import { afterEach, describe, expect, it } from "vitest";
import { setLanguage } from "../i18n/i18n.ts";
import { fieldLabel } from "./field-labels.ts";

describe("a changed field's label (docs/behaviour.md §9.51)", () => {
  afterEach(() => setLanguage("en"));

  it("names every field a change records, never by its stored name", () => {
    for (const field of [...VM_LOCATION_FIELDS, ...VM_OTHER_FIELDS]) {
      expect(fieldLabel(field), field).not.toBe(field);
      expect(fieldLabel(field), field).not.toBe("");
    }
    expect(fieldLabel("memoryBytes")).toBe("Memory");
  });

  it("says the label in the viewer's language, reusing the table's column labels", async () => {
    await setLanguage("de");
    expect(fieldLabel("state")).toBe("Zustand");
    expect(fieldLabel("details.powerState")).toBe("Quellfeld powerState");
    await setLanguage("ja");
    expect(fieldLabel("vappName")).toBe("vApp");
    expect(fieldLabel("listKey")).toBe("リスト");
  });

  it("shows a field this version does not know as stored", () => {
    expect(fieldLabel("powerState")).toBe("powerState");
  });
});

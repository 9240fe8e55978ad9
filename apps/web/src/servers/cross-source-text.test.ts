import { describe, expect, it } from "vitest";
import { crossSourceText } from "./cross-source-text.ts";

const linked = (name: string, connection: string) => ({
  id: "x",
  name,
  connection: { name: connection },
});

describe("crossSourceText", () => {
  it("names the vCenter VM and its connection for a Director VM", () => {
    expect(crossSourceText({ backingVm: linked("db01", "vc-prod") })).toBe(
      "Runs on vCenter VM db01 (vc-prod)",
    );
  });
  it("names the Director VM for a vCenter VM", () => {
    expect(crossSourceText({ backedDirectorVm: linked("db-01", "director") })).toBe(
      "Provided through Cloud Director as db-01",
    );
  });
  it("says nothing without a link", () => {
    expect(crossSourceText({ backingVm: null })).toBeNull();
    expect(crossSourceText({})).toBeNull();
  });
});

import { describe, expect, it } from "vitest";
import { draftOf, inputFromDraft, toggled } from "./webhook-draft.ts";

describe("webhook drafts", () => {
  it("start a new endpoint enabled, for every event and connection", () => {
    expect(draftOf()).toEqual({
      url: "",
      description: "",
      eventTypes: [],
      connectionIds: [],
      isEnabled: true,
    });
  });

  it("send trimmed text and the lists as chosen", () => {
    expect(
      inputFromDraft({
        url: "  https://hooks.example/in ",
        description: " ops ",
        eventTypes: ["VM_ADDED"],
        connectionIds: [],
        isEnabled: false,
      }),
    ).toEqual({
      url: "https://hooks.example/in",
      description: "ops",
      eventTypes: ["VM_ADDED"],
      connectionIds: [],
      isEnabled: false,
    });
  });

  it("tick and untick a value once", () => {
    expect(toggled(["A"], "B", true)).toEqual(["A", "B"]);
    expect(toggled(["A", "B"], "B", true)).toEqual(["A", "B"]);
    expect(toggled(["A", "B"], "A", false)).toEqual(["B"]);
  });
});

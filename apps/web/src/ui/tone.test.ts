import { describe, expect, it } from "vitest";
import { outcomeTone, powerTone } from "./tone.ts";

describe("tones", () => {
  it("never draw a partial or failed sync as ok", () => {
    expect(outcomeTone("SUCCESS")).toBe("ok");
    expect(outcomeTone("PARTIAL")).toBe("warn");
    expect(outcomeTone("FAILED")).toBe("danger");
    expect(outcomeTone(null)).toBe("neutral");
  });
  it("draw running guests as ok and paused ones as warn", () => {
    expect(powerTone("RUNNING")).toBe("ok");
    expect(powerTone("SUSPENDED")).toBe("warn");
    expect(powerTone("STOPPED")).toBe("neutral");
  });
});

import { describe, expect, it } from "vitest";
import { ClassifiedError, errorClassOf } from "./result-errors.ts";

describe("errorClassOf", () => {
  it("reads the class a ClassifiedError names", () => {
    expect(errorClassOf(new ClassifiedError("Could not reach the server", "unreachable"))).toBe(
      "unreachable",
    );
  });

  it("records anything else as internal, whatever fields it happens to have", () => {
    const lookalike = Object.assign(new Error("boom"), { errorClass: "auth" });
    expect(errorClassOf(lookalike)).toBe("internal");
    expect(errorClassOf({ errorClass: "auth" })).toBe("internal");
    expect(errorClassOf("boom")).toBe("internal");
  });
});

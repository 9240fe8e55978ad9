import { describe, expect, it } from "vitest";
import { extractServerErrorType } from "./server-error-type.ts";

describe("extractServerErrorType", () => {
  it("reads vSphere Automation's error_type, upper-cased", () => {
    const refusal = JSON.stringify({
      error_type: "UNABLE_TO_ALLOCATE_RESOURCE",
      messages: [{ args: ["4000"], default_message: "Too many virtual machines.", id: "x" }],
    });
    expect(extractServerErrorType(refusal)).toBe("UNABLE_TO_ALLOCATE_RESOURCE");
    expect(extractServerErrorType('{"error_type":"service_unavailable"}')).toBe(
      "SERVICE_UNAVAILABLE",
    );
  });

  it("gives nothing for other bodies or a value that is not a short identifier", () => {
    for (const body of [
      "",
      "<html>503 Service Unavailable</html>",
      '{"data":null,"message":"x"}',
      '["error_type"]',
      '{"error_type":42}',
      '{"error_type":"two words"}',
      JSON.stringify({ error_type: "A".repeat(101) }),
      '{"error_type":',
    ]) {
      expect(extractServerErrorType(body), body).toBeUndefined();
    }
  });
});

import { describe, expect, it } from "vitest";
import type { WebhookDelivery } from "./webhook-documents.ts";
import { deliveryTone, endpointState, endpointTone, newestFirst } from "./webhook-state.ts";

const endpoint = { isEnabled: true, disabledReason: null, failedAttempts: 0 };

describe("endpointState", () => {
  it("tells an endpoint the server turned off from one an administrator turned off", () => {
    const byServer = {
      isEnabled: false,
      disabledReason: "every delivery failed",
      failedAttempts: 9,
    };
    expect(endpointState(byServer)).toBe("DISABLED_BY_SERVER");
    expect(endpointTone(byServer)).toBe("danger");
    expect(endpointState({ ...endpoint, isEnabled: false })).toBe("DISABLED");
    expect(endpointTone({ ...endpoint, isEnabled: false })).toBe("neutral");
  });

  it("says an enabled endpoint with failed attempts is retrying, not delivering", () => {
    expect(endpointState({ ...endpoint, failedAttempts: 2 })).toBe("RETRYING");
    expect(endpointTone({ ...endpoint, failedAttempts: 2 })).toBe("warn");
    expect(endpointState(endpoint)).toBe("DELIVERING");
    expect(endpointTone(endpoint)).toBe("ok");
  });
});

describe("deliveryTone", () => {
  it("draws only a delivered attempt as ok; a given-up event is danger", () => {
    expect(deliveryTone("DELIVERED")).toBe("ok");
    expect(deliveryTone("FAILED")).toBe("warn");
    expect(deliveryTone("GAVE_UP")).toBe("danger");
    expect(deliveryTone("SOMETHING_NEW")).toBe("neutral");
  });
});

describe("newestFirst", () => {
  const attempt = (at: string, eventSequence: string | null): WebhookDelivery => ({
    at,
    eventSequence,
    eventId: `e${eventSequence}`,
    eventType: "VM_ADDED",
    attempt: 1,
    outcome: "DELIVERED",
    statusCode: 204,
    latencyMs: 3,
    error: null,
  });

  it("puts the newest attempt first and, at the same time, the later event first", () => {
    const sorted = newestFirst([
      attempt("2026-01-01T10:00:00.000Z", "1"),
      attempt("2026-01-01T10:00:05.000Z", "2"),
      attempt("2026-01-01T10:00:05.000Z", "10"),
      attempt("2026-01-01T09:00:00.000Z", null),
    ]);
    expect(sorted.map((d) => d.eventSequence)).toEqual(["10", "2", "1", null]);
  });
});

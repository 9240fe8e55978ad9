import { describe, expect, it } from "vitest";
import en from "../../../../locales/en.json";
import { formatMessage } from "../i18n/message-format.ts";
import { formatRetryWhen } from "./retry-when.ts";

describe("the sign-in form's wait", () => {
  const now = Date.parse("2026-12-04T12:00:00Z");

  it("says in how many seconds or minutes to try again, in the reader's language", () => {
    expect(formatRetryWhen("en", "2026-12-04T12:00:08Z", now)).toBe("in 8 seconds");
    expect(formatRetryWhen("de", "2026-12-04T12:05:00Z", now)).toBe("in 5 Minuten");
    expect(formatMessage("en", en.auth.rateLimited, { when: "in 8 seconds" })).toBe(
      "Too many attempts. Try again in 8 seconds.",
    );
  });

  it("never says now or a time past, whatever the clocks", () => {
    expect(formatRetryWhen("en", "2026-12-04T11:59:58Z", now)).toBe("in 1 second");
  });
});

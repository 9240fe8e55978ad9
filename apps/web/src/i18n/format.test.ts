import { describe, expect, it } from "vitest";
import {
  formatBytes as format,
  formatCount,
  formatDateTime,
  formatDateTimeSeconds,
  formatMilliseconds,
  formatRelative,
} from "./format.ts";

// Intl separates number and unit with a no-break space in some locales.
const formatBytes = (locale: string, bytes: number | null) =>
  format(locale, bytes).replace(/\s/g, " ");

describe("formatters", () => {
  it("show bytes in binary steps with a unit", () => {
    expect(formatBytes("en", 2 * 1024 ** 3)).toBe("2 GB");
    expect(formatBytes("en", 1536 * 1024 ** 2)).toBe("1.5 GB");
    expect(formatBytes("en", 512)).toBe("512 byte");
    expect(formatBytes("de", 34359738368)).toBe("32 GB");
  });

  it("show a dash for unknown values", () => {
    expect(formatBytes("en", null)).toBe("—");
    expect(formatCount("en", undefined)).toBe("—");
    expect(formatDateTime("en", null)).toBe("—");
  });

  it("group digits per locale", () => {
    expect(formatCount("en", 50000)).toBe("50,000");
    expect(formatCount("de", 50000)).toBe("50.000");
  });

  it("say how long ago in the reader's language", () => {
    const now = Date.parse("2026-01-01T12:00:00Z");
    expect(formatRelative("en", "2026-01-01T11:57:00Z", now)).toBe("3 minutes ago");
    expect(formatRelative("de", "2026-01-01T10:00:00Z", now)).toBe("vor 2 Stunden");
  });

  it("show a log time to the second and a latency in milliseconds", () => {
    expect(formatDateTimeSeconds("en", "2026-01-01T12:00:07Z")).toMatch(/:07/);
    expect(formatDateTimeSeconds("en", null)).toBe("—");
    expect(formatMilliseconds("en", 1234).replace(/\s/g, " ")).toBe("1,234 ms");
  });
});

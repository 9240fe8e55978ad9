import { describe, expect, it } from "vitest";
import { changesPath, parseChangeRange, toLocalInput } from "./change-range.ts";

const now = new Date("2026-03-10T12:00:00.000Z");
const parse = (query: string) => parseChangeRange(new URLSearchParams(query), now);

describe("the window of what changed (docs/behaviour.md §9.51)", () => {
  it("reads the presets as that long before now, and the last 24 hours when none is named", () => {
    expect(parse("since=1h")).toEqual({
      since: new Date("2026-03-10T11:00:00.000Z"),
      until: undefined,
      preset: "1h",
    });
    expect(parse("since=7d")).toMatchObject({ since: new Date("2026-03-03T12:00:00.000Z") });
    expect(parse("")).toMatchObject({ since: new Date("2026-03-09T12:00:00.000Z"), preset: "24h" });
  });

  it("reads two date-times", () => {
    expect(parse("since=2026-03-01T00:00:00Z&until=2026-03-02T00:00:00Z")).toEqual({
      since: new Date("2026-03-01T00:00:00.000Z"),
      until: new Date("2026-03-02T00:00:00.000Z"),
      preset: undefined,
    });
  });

  it("says which end it could not read", () => {
    expect(parse("since=yesterday")).toEqual({ error: "changes.error.since" });
    expect(parse("since=1")).toEqual({ error: "changes.error.since" });
    expect(parse("since=2026-03-01T00:00Z&until=2026-02-30T99:00")).toEqual({
      error: "changes.error.until",
    });
  });

  it("refuses an end that is not after the start", () => {
    expect(parse("since=2026-03-02T00:00Z&until=2026-03-01T00:00Z")).toEqual({
      error: "changes.error.order",
    });
    expect(parse("since=2026-03-11T00:00Z")).toEqual({ error: "changes.error.order" });
  });

  it("writes the address back, and a local date-time as a datetime-local field shows it", () => {
    expect(changesPath({ since: "24h" })).toBe("/servers/changes?since=24h");
    expect(changesPath({ since: "2026-03-01T10:00", until: "2026-03-02T10:00" })).toBe(
      "/servers/changes?since=2026-03-01T10%3A00&until=2026-03-02T10%3A00",
    );
    expect(toLocalInput(new Date(2026, 2, 1, 9, 5))).toBe("2026-03-01T09:05");
  });
});

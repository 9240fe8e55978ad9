// The window of "What changed since …" (docs/behaviour.md §9.51), read from the address: a preset
// (the last hour, 24 hours, 7 days) or two date-times; a window that cannot be read says why.
import type { MessageKey } from "../i18n/i18n.ts";

/** The presets, by the word the address carries, in hours. */
export const CHANGE_PRESETS = { "1h": 1, "24h": 24, "7d": 168 } as const;
export type ChangePreset = keyof typeof CHANGE_PRESETS;

/** What the page shows when the address names no window. */
export const DEFAULT_PRESET: ChangePreset = "24h";

/** A window read from the address, or why it could not be. */
export type ChangeRange =
  | { since: Date; until: Date | undefined; preset: ChangePreset | undefined }
  | { error: MessageKey };

// ISO 8601 as a datetime-local field or toISOString writes it; Date.parse alone accepts "1" too.
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,3})?)?(Z|[+-]\d{2}:\d{2})?$/;

function parseDateTime(text: string): Date | undefined {
  if (!DATE_TIME.test(text)) return undefined;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? undefined : new Date(ms);
}

function isPreset(text: string): text is ChangePreset {
  return Object.hasOwn(CHANGE_PRESETS, text);
}

/** The window `since` and `until` name; `until` absent means now. */
export function parseChangeRange(params: URLSearchParams, now: Date): ChangeRange {
  const sinceText = params.get("since")?.trim() || DEFAULT_PRESET;
  const untilText = params.get("until")?.trim() || undefined;
  if (isPreset(sinceText) && !untilText) {
    const since = new Date(now.getTime() - CHANGE_PRESETS[sinceText] * 3_600_000);
    return { since, until: undefined, preset: sinceText };
  }
  const since = isPreset(sinceText) ? undefined : parseDateTime(sinceText);
  if (!since) return { error: "changes.error.since" };
  const until = untilText === undefined ? undefined : parseDateTime(untilText);
  if (untilText !== undefined && !until) return { error: "changes.error.until" };
  if ((until ?? now).getTime() <= since.getTime()) return { error: "changes.error.order" };
  return { since, until, preset: undefined };
}

/** The address of the window. */
export function changesPath(range: { since: string; until?: string }): string {
  const params = new URLSearchParams({ since: range.since });
  if (range.until) params.set("until", range.until);
  return `/servers/changes?${params}`;
}

/** A date-time as a datetime-local field shows it: local time, to the minute. */
export function toLocalInput(date: Date): string {
  const pad = (n: number) => String(n).padStart(2, "0");
  return (
    `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}` +
    `T${pad(date.getHours())}:${pad(date.getMinutes())}`
  );
}

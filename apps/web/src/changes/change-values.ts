// How a changed field's values read in the list of what changed (docs/behaviour.md §9.51).
import { type ServerMessage, serverMessageText } from "../i18n/server-text.ts";

/** Longest a value is shown before it is cut. */
const MAX_VALUE = 80;

/** A stored value as text: strings as they are, anything else as compact JSON, cut when long. */
export function valueText(value: unknown): string {
  const text =
    value === null || value === undefined
      ? "—"
      : typeof value === "string"
        ? value
        : JSON.stringify(value);
  return text.length > MAX_VALUE ? `${text.slice(0, MAX_VALUE - 1)}…` : text;
}

/** A changed guest's fields, by name: [field, from, to]. */
export function fieldChanges(changes: unknown): [string, string, string][] {
  if (!changes || typeof changes !== "object" || Array.isArray(changes)) return [];
  return Object.entries(changes as Record<string, { from?: unknown; to?: unknown }>)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([field, step]) => [field, valueText(step?.from), valueText(step?.to)]);
}

/**
 * A removed guest's reason, when the removal stored one: in the viewer's language where the server
 * sent it as a code (docs/behaviour.md §11.4), else as stored.
 */
export function removalReason(
  changes: unknown,
  reasonText?: ServerMessage | null,
): string | undefined {
  if (reasonText) return serverMessageText(reasonText);
  if (!changes || typeof changes !== "object") return undefined;
  const reason = (changes as { reason?: unknown }).reason;
  return typeof reason === "string" && reason ? reason : undefined;
}

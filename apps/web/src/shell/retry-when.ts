// When a rate-limited sign-in may be tried again, for the sign-in form's message.
import { formatRelative } from "../i18n/format.ts";

/**
 * "in 8 seconds", "in 5 minutes": sign-in waits are seconds to minutes, which a clock time to the
 * minute hides. Never "now" or in the past (the browser's clock may run ahead of the server's).
 */
export function formatRetryWhen(locale: string, retryAt: string, now = Date.now()): string {
  const at = Date.parse(retryAt);
  if (Number.isNaN(at)) return formatRelative(locale, retryAt, now);
  return formatRelative(locale, new Date(Math.max(at, now + 1000)).toISOString(), now);
}

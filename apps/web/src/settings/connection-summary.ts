// The line under a connection's address on its card: who it logs in as (for those who manage it),
// when it last synced and how many syncs in a row failed.
import { formatDateTime } from "../i18n/format.ts";
import { t } from "../i18n/i18n.ts";
import type { Connection } from "./connection-fields.ts";

type SummaryFields = Pick<
  Connection,
  "username" | "tokenId" | "lastSyncAt" | "consecutiveFailures"
>;

/**
 * The card's summary, parts joined by " · ". A viewer is not sent the user name, so the line
 * then starts with the last sync rather than with a separator.
 */
export function connectionSummary(c: SummaryFields, locale: string): string {
  const login = c.username ? `${c.username}${c.tokenId ? `!${c.tokenId}` : ""}` : "";
  const parts = [
    login,
    `${t("settings.lastSync")}: ${formatDateTime(locale, c.lastSyncAt)}`,
    c.consecutiveFailures > 0 ? t("settings.failures", { count: c.consecutiveFailures }) : "",
  ];
  return parts.filter(Boolean).join(" · ");
}

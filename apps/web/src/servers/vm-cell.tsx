import { formatBytes, formatCount, formatRelative } from "../i18n/format.ts";
import { currentLanguage, t } from "../i18n/i18n.ts";
import { Badge, SourceBadge } from "../ui/badge.tsx";
import { CutText } from "../ui/cut-text.tsx";
import { powerTone } from "../ui/tone.ts";
import type { ColumnId } from "./columns.ts";
import { locationText } from "./location-text.ts";
import type { VmRow } from "./vm-row.ts";

/** The content of one table cell. */
export function VmCell(props: { row: VmRow; column: ColumnId }) {
  const { row } = props;
  const locale = currentLanguage();
  switch (props.column) {
    case "name":
      return (
        <span className="vm-name">
          <bdi>{row.name}</bdi>
          {row.kind === "CONTAINER" && <span className="muted"> · {t("servers.container")}</span>}
          {row.confirmation !== "CONFIRMED" && (
            <Badge
              tone="warn"
              title={t(`confirmation.${row.confirmation}` as "confirmation.CONFIRMED")}
            >
              {t("servers.unconfirmed")}
            </Badge>
          )}
          {row.removedAt && <RemovedMark removedAt={row.removedAt} reason={row.removedReason} />}
        </span>
      );
    case "source":
      return <SourceBadge source={row.source} />;
    case "state":
      return <Badge tone={powerTone(row.state)}>{t(`state.${row.state}`)}</Badge>;
    case "location":
      return <CutText dir="ltr" text={locationText(row.location)} />;
    case "ips":
      return (
        <CutText
          dir="ltr"
          className="mono"
          text={row.ipAddresses.map((ip) => ip.address).join(", ")}
        />
      );
    case "cpu":
      return <>{formatCount(locale, row.cpuCount)}</>;
    case "memory":
      return <>{formatBytes(locale, row.memoryBytes)}</>;
    case "disk":
      return <>{formatBytes(locale, row.diskTotalBytes)}</>;
    case "connection":
      return <CutText text={row.connection.name} />;
    case "lastSeen":
      return <>{formatRelative(locale, row.lastSeenAt)}</>;
  }
}

/** A tombstone's mark: when it was removed, and why (docs/behaviour.md §9.43). */
function RemovedMark(props: { removedAt: string; reason: string | null }) {
  const when = formatRelative(currentLanguage(), props.removedAt);
  return (
    <>
      {" "}
      <Badge tone="danger">{t("servers.removed", { when })}</Badge>
      {props.reason && <span className="muted"> {props.reason}</span>}
    </>
  );
}

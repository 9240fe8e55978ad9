import { CONNECTION_KINDS } from "@hyperlens/shared";
import type { KeyboardEvent } from "react";
import { t } from "../i18n/i18n.ts";
import type { RowNavigation } from "../ui/row-navigation.ts";
import type { GroupKey } from "./group-rows.ts";
import type { GroupBy } from "./view-params.ts";

/** How a group is named: a source by its product name, no value as "No cluster" and the like. */
export function groupLabel(by: GroupBy, key: GroupKey): string {
  if (key === null) return t(`servers.group.none.${by}`);
  const source = CONNECTION_KINDS.find((kind) => kind === key);
  return by === "source" && source ? t(`source.${source}`) : key;
}

const spanAll = { gridColumn: "1 / -1" } as const;

/**
 * A group's header: a real, focusable row of the table (keyboard navigation moves through it like
 * any row), whose button — or Enter and Space on the row — opens and closes the group.
 */
export function GroupHeaderRow(props: {
  by: GroupBy;
  groupKey: GroupKey;
  count: number;
  isExpanded: boolean;
  rowIndex: number;
  height: number;
  onToggle: (key: GroupKey) => void;
  /** The table's arrow-key navigation for this row (Enter toggles through it). */
  navigation: RowNavigation;
}) {
  const toggle = () => props.onToggle(props.groupKey);
  const onKeyDown = (event: KeyboardEvent<HTMLTableRowElement>) => {
    if (event.target === event.currentTarget && event.key === " ") {
      event.preventDefault();
      toggle();
      return;
    }
    props.navigation.onKeyDown(event);
  };
  return (
    <tr
      className="group-row"
      aria-rowindex={props.rowIndex}
      {...props.navigation}
      style={{ height: props.height }}
      onKeyDown={onKeyDown}
    >
      <td style={spanAll}>
        <button
          type="button"
          className="group-toggle"
          aria-expanded={props.isExpanded}
          onClick={toggle}
        >
          <span aria-hidden="true">{props.isExpanded ? "▾" : "▸"}</span>{" "}
          <span className="group-name">{groupLabel(props.by, props.groupKey)}</span>{" "}
          <span className="muted">{t("servers.group.count", { count: props.count })}</span>
        </button>
      </td>
    </tr>
  );
}

/** The line under an expanded group's loaded rows while it has more to load. */
export function MoreRowsRow(props: { rowIndex: number; height: number }) {
  return (
    <tr aria-rowindex={props.rowIndex} style={{ height: props.height }}>
      <td className="muted" style={spanAll}>
        {t("common.loading")}
      </td>
    </tr>
  );
}

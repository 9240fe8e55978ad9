import { t } from "../i18n/i18n.ts";
import { GROUP_BYS, type GroupBy } from "./view-params.ts";

/** Group by and dense rows: how the Servers table is laid out, not what it lists. */
export function ViewControls(props: {
  group: GroupBy | undefined;
  onGroupChange: (group: GroupBy | undefined) => void;
  isDense: boolean;
  onDenseChange: (isDense: boolean) => void;
}) {
  return (
    <>
      <label>
        {t("servers.groupBy")}{" "}
        <select
          value={props.group ?? ""}
          onChange={(e) => props.onGroupChange(GROUP_BYS.find((by) => by === e.target.value))}
        >
          <option value="">{t("servers.group.byNone")}</option>
          {GROUP_BYS.map((by) => (
            <option key={by} value={by}>
              {t(`servers.group.by.${by}`)}
            </option>
          ))}
        </select>
      </label>
      <label>
        <input
          type="checkbox"
          checked={props.isDense}
          onChange={(e) => props.onDenseChange(e.target.checked)}
        />{" "}
        {t("servers.denseRows")}
      </label>
    </>
  );
}

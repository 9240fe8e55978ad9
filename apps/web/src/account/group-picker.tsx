import { t } from "../i18n/i18n.ts";

/** A connection group as the pickers list it. */
export interface GroupChoice {
  id: string;
  name: string;
}

/**
 * Which connections something sees: every one, or the chosen groups. Without `onAllChange` it is
 * only the group checkboxes (a connection is in groups; it has no "all").
 */
export function GroupPicker(props: {
  groups: readonly GroupChoice[];
  value: readonly string[];
  onChange: (groupIds: string[]) => void;
  allConnections?: boolean;
  onAllChange?: (allConnections: boolean) => void;
  legend: string;
}) {
  const isAll = props.onAllChange !== undefined && props.allConnections === true;
  return (
    <fieldset className="capabilities">
      <legend>{props.legend}</legend>
      {props.onAllChange && (
        <label className="check">
          <input
            type="checkbox"
            checked={isAll}
            onChange={(e) => props.onAllChange?.(e.target.checked)}
          />{" "}
          {t("groups.allConnections")}
        </label>
      )}
      {!isAll && props.groups.length === 0 && <p className="muted">{t("groups.none")}</p>}
      {!isAll &&
        props.groups.map((group) => (
          <label key={group.id} className="check">
            <input
              type="checkbox"
              checked={props.value.includes(group.id)}
              onChange={(e) =>
                props.onChange(
                  e.target.checked
                    ? [...props.value, group.id]
                    : props.value.filter((id) => id !== group.id),
                )
              }
            />{" "}
            {group.name}
          </label>
        ))}
    </fieldset>
  );
}

import { t } from "../i18n/i18n.ts";
import { serverMessageText } from "../i18n/server-text.ts";
import { Badge } from "../ui/badge.tsx";
import { type RulesPreview, unlistedChangeCount } from "./rules-preview.ts";
import { rejectRuleText } from "./rules-text.ts";

function Addresses(props: { addresses: readonly string[] }) {
  if (props.addresses.length === 0) return <span className="muted">—</span>;
  return (
    <ul className="plain">
      {props.addresses.map((address) => (
        <li key={address} className="mono">
          {address}
        </li>
      ))}
    </ul>
  );
}

/**
 * What saving a rules change would do (docs/behaviour.md §9.41): the totals, then each guest
 * that would change with the addresses added, those dropped and the rule dropping each, and its
 * primary address before and after; "and N more" when the API listed only the first ones.
 */
export function PreviewTable(props: { preview: RulesPreview; label: string }) {
  const { preview } = props;
  const unlisted = unlistedChangeCount(preview);
  return (
    <section className="rules-preview" aria-label={props.label}>
      <h3>{props.label}</h3>
      <p role="status">
        {[
          t("addressRules.totals.guests", {
            changed: preview.changedVmCount,
            total: preview.vmCount,
          }),
          t("addressRules.totals.added", { count: preview.addedCount }),
          t("addressRules.totals.dropped", { count: preview.droppedCount }),
          t("addressRules.totals.primary", { count: preview.primaryChangedCount }),
        ].join(" · ")}
      </p>
      {preview.changes.length > 0 && (
        <table className="list" aria-label={t("addressRules.previewTable")}>
          <thead>
            <tr>
              <th scope="col">{t("addressRules.column.guest")}</th>
              <th scope="col">{t("addressRules.column.added")}</th>
              <th scope="col">{t("addressRules.column.dropped")}</th>
              <th scope="col">{t("addressRules.column.primary")}</th>
            </tr>
          </thead>
          <tbody>
            {preview.changes.map((change) => (
              <tr key={change.vm.id}>
                <td>
                  {change.vm.name} <span className="muted">{change.vm.connection.name}</span>
                </td>
                <td>
                  <Addresses addresses={change.added} />
                </td>
                <td>
                  {change.dropped.length === 0 && <span className="muted">—</span>}
                  <ul className="plain">
                    {change.dropped.map((dropped) => (
                      <li key={dropped.address}>
                        <span className="mono">{dropped.address}</span>{" "}
                        <Badge
                          tone="warn"
                          title={
                            dropped.reasonText
                              ? serverMessageText(dropped.reasonText)
                              : dropped.reason
                          }
                        >
                          {rejectRuleText(dropped.rule)}
                        </Badge>
                      </li>
                    ))}
                  </ul>
                </td>
                <td className="mono">
                  {change.primaryBefore === change.primaryAfter
                    ? (change.primaryAfter ?? "—")
                    : t("addressRules.primaryChange", {
                        before: change.primaryBefore ?? "—",
                        after: change.primaryAfter ?? "—",
                      })}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {unlisted > 0 && <p>{t("addressRules.andMore", { count: unlisted })}</p>}
    </section>
  );
}

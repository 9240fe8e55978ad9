// The values only the guest reports, each with when it last did and, when missing or stale, why
// (docs/behaviour.md §10.10–10.11).
import { graphql, type ResultOf } from "../graphql/graphql.ts";
import { formatDateTime } from "../i18n/format.ts";
import { currentLanguage, type MessageKey, t } from "../i18n/i18n.ts";
import { Badge } from "../ui/badge.tsx";
import { Isolated } from "../ui/cut-text.tsx";
import { missingReasonText } from "./missing-reason-text.ts";

const ReportedValueFields = graphql(`
  fragment ReportedValueFields on ReportedValue {
    value reportedAt notReportedSince missingReason { code privilege message }
  }
`);

export const GuestValuesFields = graphql(
  `
  fragment GuestValuesFields on VirtualMachine {
    guestAgentMissingReason { code privilege message }
    guestValues {
      hostname { ...ReportedValueFields }
      osName { ...ReportedValueFields }
      osVersion { ...ReportedValueFields }
      kernel { ...ReportedValueFields }
    }
  }
`,
  [ReportedValueFields],
);

type Fields = ResultOf<typeof GuestValuesFields>;
type Value = Fields["guestValues"]["hostname"];

const ROWS: [MessageKey, keyof Fields["guestValues"]][] = [
  ["guestValues.hostname", "hostname"],
  ["guestValues.osName", "osName"],
  ["guestValues.osVersion", "osVersion"],
  ["guestValues.kernel", "kernel"],
];

function ReportedValue(props: { value: Value }) {
  const { value } = props;
  const locale = currentLanguage();
  return (
    <>
      <Isolated dir="auto">{value.value ?? "—"}</Isolated>
      {value.notReportedSince && (
        <>
          {" "}
          <Badge tone="warn">
            {t("guestValues.lastReported", { time: formatDateTime(locale, value.reportedAt) })}
          </Badge>
        </>
      )}
      {value.missingReason && <div className="muted">{missingReasonText(value.missingReason)}</div>}
    </>
  );
}

/** The drawer section of guest-reported values and the agent's last outcome. */
export function GuestValues(props: { vm: Fields }) {
  const { vm } = props;
  return (
    <section>
      <h3>{t("guestValues.title")}</h3>
      <dl className="facts">
        <div>
          <dt>{t("guestValues.agent")}</dt>
          <dd>
            {vm.guestAgentMissingReason
              ? missingReasonText(vm.guestAgentMissingReason)
              : t("guestValues.agentAnswered")}
          </dd>
        </div>
        {ROWS.map(([label, field]) => (
          <div key={field}>
            <dt>{t(label)}</dt>
            <dd>
              <ReportedValue value={vm.guestValues[field]} />
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}

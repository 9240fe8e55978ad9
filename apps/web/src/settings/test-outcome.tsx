import { t } from "../i18n/i18n.ts";
import { type ServerMessage, serverMessageText } from "../i18n/server-text.ts";
import { failureText } from "../sync/failure-text.ts";
import { Badge } from "../ui/badge.tsx";

/** What a Test answered, or that it is still running. */
export type TestOutcomeState =
  | { pending: true }
  | { ok: boolean; errorClass: string | null; message: string; messageText: ServerMessage | null };

/** A Test's outcome, for a saved connection's card and for the form's Test before saving. */
export function TestOutcome(props: { state: TestOutcomeState | undefined }) {
  const { state } = props;
  if (!state) return null;
  if ("pending" in state) return <p>{t("settings.testing")}</p>;
  return (
    <p role="status" className={state.ok ? "tone-text-ok" : "tone-text-danger"}>
      <Badge tone={state.ok ? "ok" : "danger"}>
        {state.ok ? t("settings.testOk") : t("settings.testFailed")}
      </Badge>{" "}
      {state.ok && state.messageText
        ? serverMessageText(state.messageText)
        : failureText(
            state.errorClass,
            state.messageText ? serverMessageText(state.messageText) : state.message,
          )}
    </p>
  );
}

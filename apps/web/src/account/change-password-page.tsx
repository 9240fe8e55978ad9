import { type FormEvent, useState } from "react";
import { useMutation } from "urql";
import { graphql } from "../graphql/graphql.ts";
import { ValidationErrorFields } from "../graphql/validation-error.ts";
import { currentLanguage, t } from "../i18n/i18n.ts";
import { formatRetryWhen } from "../shell/retry-when.ts";

const CHANGE = graphql(
  `
  mutation ChangeOwnPassword($currentPassword: String!, $newPassword: String!) {
    result: changeOwnPassword(currentPassword: $currentPassword, newPassword: $newPassword) {
      __typename
      ...ValidationErrorFields
      ... on RateLimitedError { retryAt }
      ... on MutationChangeOwnPasswordSuccess { data { mustChangePassword } }
    }
  }
`,
  [ValidationErrorFields],
);

/**
 * Change your password: the current one, the new one twice. Shown as the only page while an
 * administrator's reset requires it (`isForced`); your other sessions end when it is changed.
 */
export function ChangePasswordPage(props: { isForced: boolean; onChanged: () => void }) {
  const [, change] = useMutation(CHANGE);
  const [problem, setProblem] = useState<string>();
  const [isDone, setDone] = useState(false);
  const [isBusy, setBusy] = useState(false);

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    // Kept now: React clears event.currentTarget once the handler yields at the first await.
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const value = (name: string) => String(form.get(name) ?? "");
    setProblem(undefined);
    setDone(false);
    if (value("newPassword") !== value("repeatPassword")) {
      setProblem(t("password.mismatch"));
      return;
    }
    setBusy(true);
    const result = await change({
      currentPassword: value("currentPassword"),
      newPassword: value("newPassword"),
    });
    setBusy(false);
    const outcome = result.data?.result;
    if (result.error) setProblem(result.error.message);
    else if (outcome?.__typename === "RateLimitedError")
      setProblem(
        t("auth.rateLimited", { when: formatRetryWhen(currentLanguage(), outcome.retryAt) }),
      );
    else if (outcome?.__typename === "ValidationError")
      setProblem(outcome.problems.map((p) => p.message).join(" ") || outcome.message);
    else {
      formElement.reset();
      setDone(true);
      props.onChanged();
    }
  };

  return (
    <div>
      <h1>{t("password.title")}</h1>
      {props.isForced && (
        <p role="alert" className="problem">
          {t("password.forced")}
        </p>
      )}
      <form onSubmit={submit} className="card">
        <div className="field">
          <label htmlFor="current-password">{t("password.current")}</label>
          <input
            id="current-password"
            name="currentPassword"
            type="password"
            required
            autoComplete="current-password"
          />
        </div>
        <div className="field">
          <label htmlFor="new-password">{t("password.new")}</label>
          <input
            id="new-password"
            name="newPassword"
            type="password"
            required
            minLength={12}
            autoComplete="new-password"
            aria-describedby="new-password-hint"
          />
          <small id="new-password-hint" className="muted">
            {t("auth.passwordHint")}
          </small>
        </div>
        <div className="field">
          <label htmlFor="repeat-password">{t("password.repeat")}</label>
          <input
            id="repeat-password"
            name="repeatPassword"
            type="password"
            required
            autoComplete="new-password"
          />
        </div>
        {problem && (
          <p role="alert" className="problem">
            {problem}
          </p>
        )}
        {isDone && <p role="status">{t("password.done")}</p>}
        <button type="submit" className="primary" disabled={isBusy}>
          {t("password.change")}
        </button>
      </form>
    </div>
  );
}

import { type FormEvent, useState } from "react";
import { useMutation } from "urql";
import { codeProblem } from "../account/code-outcome.ts";
import { graphql } from "../graphql/graphql.ts";
import { t } from "../i18n/i18n.ts";

const COMPLETE = graphql(`
  mutation CompleteSignIn($challenge: String!, $code: String, $recoveryCode: String) {
    result: completeSignIn(challenge: $challenge, code: $code, recoveryCode: $recoveryCode) {
      __typename
      ... on Error { message }
      ... on RateLimitedError { retryAt }
    }
  }
`);

/**
 * The second sign-in step: a code from the authenticator app, or (switched) a recovery code.
 * An expired or used challenge sends the user back to the password.
 */
export function SecondFactorForm(props: {
  challenge: string;
  onDone: () => void;
  onRestart: (problem: string) => void;
}) {
  const [, complete] = useMutation(COMPLETE);
  const [isRecovery, setRecovery] = useState(false);
  const [value, setValue] = useState("");
  const [problem, setProblem] = useState<string>();
  const [isBusy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setBusy(true);
    const result = await complete({
      challenge: props.challenge,
      code: isRecovery ? null : value,
      recoveryCode: isRecovery ? value : null,
    });
    setBusy(false);
    const outcome = result.data?.result;
    if (outcome?.__typename === "MutationCompleteSignInSuccess") return props.onDone();
    const message = codeProblem(outcome, result.error);
    if (outcome?.__typename === "SignInExpiredError") return props.onRestart(message ?? "");
    setValue("");
    setProblem(message);
  };

  return (
    <form className="card auth" onSubmit={submit} aria-label={t("twoFactor.signInTitle")}>
      <h1>{t("twoFactor.signInTitle")}</h1>
      <p>{isRecovery ? t("twoFactor.recoveryHint") : t("twoFactor.signInHint")}</p>
      <div className="field">
        <label htmlFor="second-factor">
          {isRecovery ? t("twoFactor.recoveryCode") : t("twoFactor.code")}
        </label>
        <input
          id="second-factor"
          key={isRecovery ? "recovery" : "code"}
          required
          // biome-ignore lint/a11y/noAutofocus: the one field of this step, right after the password
          autoFocus
          autoComplete="one-time-code"
          inputMode={isRecovery ? "text" : "numeric"}
          spellCheck={false}
          value={value}
          onChange={(e) => setValue(e.target.value)}
        />
      </div>
      {problem && (
        <p role="alert" className="problem">
          {problem}
        </p>
      )}
      <div className="actions">
        <button type="submit" className="primary" disabled={isBusy}>
          {t("twoFactor.verify")}
        </button>
        <button
          type="button"
          className="link"
          onClick={() => {
            setRecovery(!isRecovery);
            setValue("");
            setProblem(undefined);
          }}
        >
          {isRecovery ? t("twoFactor.useApp") : t("twoFactor.useRecoveryCode")}
        </button>
      </div>
    </form>
  );
}

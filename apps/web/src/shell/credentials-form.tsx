import { type FormEvent, useState } from "react";
import { useMutation } from "urql";
import { graphql } from "../graphql/graphql.ts";
import { ValidationErrorFields } from "../graphql/validation-error.ts";
import { currentLanguage, t } from "../i18n/i18n.ts";
import { DirectoryChoice } from "./directory-choice.tsx";
import { formatRetryWhen } from "./retry-when.ts";
import { SecondFactorForm } from "./second-factor-form.tsx";

const SIGN_IN = graphql(`
  mutation SignIn($username: String!, $password: String!) {
    result: signIn(username: $username, password: $password) {
      __typename
      ... on Error { message }
      ... on RateLimitedError { retryAt }
      ... on TwoFactorRequired { challenge }
    }
  }
`);

const SIGN_IN_WITH_DIRECTORY = graphql(`
  mutation SignInWithDirectory($provider: String!, $username: String!, $password: String!) {
    result: signInWithDirectory(provider: $provider, username: $username, password: $password) {
      __typename
      ... on Error { message }
      ... on RateLimitedError { retryAt }
    }
  }
`);

const SETUP = graphql(
  `
  mutation Setup($setupToken: String!, $username: String!, $password: String!) {
    result: completeSetup(setupToken: $setupToken, username: $username, password: $password) {
      __typename
      ...ValidationErrorFields
    }
  }
`,
  [ValidationErrorFields],
);

/** First-run setup (with the printed token) or sign-in; calls onDone once a session exists. */
export function CredentialsForm(props: { isSetup: boolean; onDone: () => void }) {
  const [, signIn] = useMutation(SIGN_IN);
  const [, setup] = useMutation(SETUP);
  const [, signInWithDirectory] = useMutation(SIGN_IN_WITH_DIRECTORY);
  /** "" signs in with the local account, else the directory provider's slug. */
  const [directory, setDirectory] = useState("");
  const [problem, setProblem] = useState<string>();
  const [isBusy, setBusy] = useState(false);
  const [challenge, setChallenge] = useState<string>();

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const value = (name: string) => String(form.get(name) ?? "");
    setBusy(true);
    const result = props.isSetup
      ? await setup({
          setupToken: value("setupToken").trim(),
          username: value("username"),
          password: value("password"),
        })
      : directory
        ? await signInWithDirectory({
            provider: directory,
            username: value("username"),
            password: value("password"),
          })
        : await signIn({ username: value("username"), password: value("password") });
    setBusy(false);
    const outcome = result.data?.result;
    if (outcome?.__typename === "TwoFactorRequired") {
      setProblem(undefined);
      setChallenge(outcome.challenge);
    } else if (result.error) setProblem(result.error.message);
    else if (outcome?.__typename === "RateLimitedError" && outcome.retryAt)
      setProblem(
        t("auth.rateLimited", { when: formatRetryWhen(currentLanguage(), outcome.retryAt) }),
      );
    else if (outcome && "message" in outcome && outcome.message) {
      const details =
        "problems" in outcome ? outcome.problems.map((p) => p.message).join(" ") : undefined;
      setProblem(details || outcome.message);
    } else props.onDone();
  };

  if (challenge) {
    return (
      <SecondFactorForm
        challenge={challenge}
        onDone={props.onDone}
        onRestart={(message) => {
          setChallenge(undefined);
          setProblem(message);
        }}
      />
    );
  }
  return (
    <form
      className="card auth"
      onSubmit={submit}
      aria-label={props.isSetup ? t("auth.setupTitle") : t("auth.signIn")}
    >
      <h1>{props.isSetup ? t("auth.setupTitle") : t("auth.signInTitle")}</h1>
      {props.isSetup && <p>{t("app.firstRun")}</p>}
      {props.isSetup && (
        <div className="field">
          <label htmlFor="setup-token">{t("auth.setupToken")}</label>
          <input
            id="setup-token"
            name="setupToken"
            required
            autoComplete="off"
            spellCheck={false}
          />
        </div>
      )}
      {!props.isSetup && <DirectoryChoice value={directory} onChange={setDirectory} />}
      <div className="field">
        <label htmlFor="auth-username">{t("auth.username")}</label>
        <input id="auth-username" name="username" required autoComplete="username" />
      </div>
      <div className="field">
        <label htmlFor="auth-password">{t("auth.password")}</label>
        <input
          id="auth-password"
          name="password"
          type="password"
          required
          minLength={props.isSetup ? 12 : undefined}
          autoComplete={props.isSetup ? "new-password" : "current-password"}
        />
        {props.isSetup && <small className="muted">{t("auth.passwordHint")}</small>}
      </div>
      {problem && (
        <p role="alert" className="problem">
          {problem}
        </p>
      )}
      <button type="submit" className="primary" disabled={isBusy}>
        {props.isSetup ? t("auth.createAdmin") : t("auth.signIn")}
      </button>
    </form>
  );
}

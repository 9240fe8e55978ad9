import { type FormEvent, useState } from "react";
import { useMutation, useQuery } from "urql";
import { t } from "./i18n.ts";

const STATUS = "query Status { isSetupRequired viewer { username } }";
const SIGN_IN = `mutation SignIn($username: String!, $password: String!) {
  signIn(username: $username, password: $password) { __typename ... on Error { message } }
}`;
const SETUP = `mutation Setup($setupToken: String!, $username: String!, $password: String!) {
  completeSetup(setupToken: $setupToken, username: $username, password: $password) {
    __typename ... on Error { message }
  }
}`;
const SIGN_OUT = "mutation SignOut { signOut }";

interface Status {
  isSetupRequired: boolean;
  viewer: { username: string } | null;
}

type Outcome = Record<string, { __typename: string; message?: string }>;

function CredentialsForm(props: { withSetupToken: boolean; onDone: () => void }) {
  const [, signIn] = useMutation<Outcome>(SIGN_IN);
  const [, setup] = useMutation<Outcome>(SETUP);
  const [problem, setProblem] = useState<string>();
  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = Object.fromEntries(new FormData(event.currentTarget)) as Record<string, string>;
    const result = props.withSetupToken ? await setup(form) : await signIn(form);
    const outcome = result.data && Object.values(result.data)[0];
    if (result.error || outcome?.message) setProblem(outcome?.message ?? result.error?.message);
    else props.onDone();
  };
  return (
    <form onSubmit={submit}>
      {props.withSetupToken && (
        <label>
          {t("auth.setupToken")} <input name="setupToken" required autoComplete="off" />
        </label>
      )}
      <label>
        {t("auth.username")} <input name="username" required autoComplete="username" />
      </label>
      <label>
        {t("auth.password")}{" "}
        <input
          name="password"
          type="password"
          required
          autoComplete={props.withSetupToken ? "new-password" : "current-password"}
        />
      </label>
      {problem && <p role="alert">{problem}</p>}
      <button type="submit">
        {props.withSetupToken ? t("auth.createAdmin") : t("auth.signIn")}
      </button>
    </form>
  );
}

/** The shell of the web app: first-run setup, sign-in and sign-out. Inventory pages follow. */
export function App() {
  const [{ data, error }, refresh] = useQuery<Status>({
    query: STATUS,
    requestPolicy: "network-only",
  });
  const [, signOut] = useMutation(SIGN_OUT);
  const reload = () => refresh({ requestPolicy: "network-only" });
  return (
    <main>
      <h1>{t("app.title")}</h1>
      {error && <p role="alert">{error.message}</p>}
      {data?.isSetupRequired && (
        <>
          <p>{t("app.firstRun")}</p>
          <CredentialsForm withSetupToken onDone={reload} />
        </>
      )}
      {data && !data.isSetupRequired && !data.viewer && (
        <CredentialsForm withSetupToken={false} onDone={reload} />
      )}
      {data?.viewer && (
        <p>
          {t("app.signedInAs", { username: data.viewer.username })}{" "}
          <button type="button" onClick={() => signOut({}).then(reload)}>
            {t("auth.signOut")}
          </button>
        </p>
      )}
    </main>
  );
}

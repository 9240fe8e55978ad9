import { CAPABILITIES, type Capability, DEFAULT_CAPABILITIES } from "@hyperlens/shared";
import { type FormEvent, useState } from "react";
import { useMutation, useQuery } from "urql";
import { graphql } from "../graphql/graphql.ts";
import { ValidationErrorFields } from "../graphql/validation-error.ts";
import { formatDateTime } from "../i18n/format.ts";
import { currentLanguage, t } from "../i18n/i18n.ts";
import { Badge } from "../ui/badge.tsx";
import { CapabilityPicker } from "./capability-picker.tsx";
import { ResetTwoFactorButton } from "./reset-two-factor-button.tsx";
import { UserActions } from "./user-actions.tsx";
import { UserGrantsEditor } from "./user-grants-editor.tsx";

const USERS = graphql(`
  query Users {
    users {
      id username isAdmin capabilities createdAt disabledAt mustChangePassword lastSignInAt
      isTwoFactorEnabled allConnections connectionGroups { id }
    }
  }
`);

const CREATE = graphql(
  `
  mutation CreateUser(
    $username: String!
    $password: String!
    $capabilities: [Capability!]!
    $isAdmin: Boolean
  ) {
    result: createUser(
      username: $username
      password: $password
      capabilities: $capabilities
      isAdmin: $isAdmin
    ) {
      __typename
      ...ValidationErrorFields
      ... on MutationCreateUserSuccess { data { id } }
    }
  }
`,
  [ValidationErrorFields],
);

/** Users (administrators only): who may sign in and with which capabilities. */
export function UsersPage() {
  const locale = currentLanguage();
  const [{ data, error }, reload] = useQuery({
    query: USERS,
    requestPolicy: "network-only",
  });
  const [, create] = useMutation(CREATE);
  const [username, setUsername] = useState("");
  const [password, setPassword] = useState("");
  const [isAdmin, setAdmin] = useState(false);
  const [capabilities, setCapabilities] = useState<Capability[]>([...DEFAULT_CAPABILITIES]);
  const [problem, setProblem] = useState<string>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(undefined);
    const result = await create({ username, password, capabilities, isAdmin });
    const outcome = result.data?.result;
    if (outcome && "data" in outcome) {
      setUsername("");
      setPassword("");
      reload({ requestPolicy: "network-only" });
    } else {
      const details =
        outcome?.__typename === "ValidationError"
          ? outcome.problems.map((p) => p.message).join(" ")
          : "";
      setProblem(
        details || (outcome && "message" in outcome ? outcome.message : result.error?.message),
      );
    }
  };

  return (
    <div>
      <h1>{t("nav.users")}</h1>
      <form onSubmit={submit} className="card">
        <h2>{t("users.create")}</h2>
        <div className="field">
          <label htmlFor="user-name">{t("auth.username")}</label>
          <input
            id="user-name"
            required
            autoComplete="off"
            value={username}
            onChange={(e) => setUsername(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor="user-password">{t("auth.password")}</label>
          <input
            id="user-password"
            type="password"
            required
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
          />
        </div>
        <label className="check">
          <input type="checkbox" checked={isAdmin} onChange={(e) => setAdmin(e.target.checked)} />{" "}
          {t("users.isAdmin")}
        </label>
        <CapabilityPicker allowed={CAPABILITIES} value={capabilities} onChange={setCapabilities} />
        {problem && (
          <p role="alert" className="problem">
            {problem}
          </p>
        )}
        <button type="submit" className="primary">
          {t("users.create")}
        </button>
      </form>
      {error && <p role="alert">{error.message}</p>}
      <table className="list">
        <thead>
          <tr>
            <th scope="col">{t("auth.username")}</th>
            <th scope="col">{t("account.capabilities")}</th>
            <th scope="col">{t("users.created")}</th>
            <th scope="col">{t("users.lastSignIn")}</th>
            <th scope="col">{t("groups.connectionsSeen")}</th>
            <th scope="col">{t("twoFactor.title")}</th>
            <th scope="col">{t("common.actions")}</th>
          </tr>
        </thead>
        <tbody>
          {data?.users.map((user) => (
            <tr key={user.id}>
              <td>
                {user.username} {user.isAdmin && <Badge tone="info">{t("users.admin")}</Badge>}{" "}
                {user.disabledAt && <Badge tone="neutral">{t("users.disabled")}</Badge>}{" "}
                {user.mustChangePassword && (
                  <Badge tone="neutral">{t("users.mustChangePassword")}</Badge>
                )}
              </td>
              <td>{user.capabilities.map((c) => t(`capability.${c}`)).join(", ")}</td>
              <td>{formatDateTime(locale, user.createdAt)}</td>
              <td>{user.lastSignInAt ? formatDateTime(locale, user.lastSignInAt) : "—"}</td>
              <td>
                {user.isAdmin ? t("groups.allConnections") : <UserGrantsEditor user={user} />}
              </td>
              <td>
                {user.isTwoFactorEnabled && (
                  <ResetTwoFactorButton
                    userId={user.id}
                    username={user.username}
                    onDone={() => reload({ requestPolicy: "network-only" })}
                  />
                )}
              </td>
              <td>
                <UserActions
                  user={user}
                  onChanged={() => reload({ requestPolicy: "network-only" })}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

import { CAPABILITIES, type Capability } from "@hyperlens/shared";
import { type FormEvent, useState } from "react";
import { useMutation } from "urql";
import { graphql } from "../graphql/graphql.ts";
import { ValidationErrorFields } from "../graphql/validation-error.ts";
import { t } from "../i18n/i18n.ts";
import { ConfirmButton } from "../ui/confirm-button.tsx";
import { CapabilityPicker } from "./capability-picker.tsx";

const UPDATE = graphql(
  `
  mutation UpdateUserCapabilities($userId: ID!, $capabilities: [Capability!]!, $isAdmin: Boolean!) {
    result: updateUserCapabilities(userId: $userId, capabilities: $capabilities, isAdmin: $isAdmin) {
      __typename
      ...ValidationErrorFields
    }
  }
`,
  [ValidationErrorFields],
);

const RESET = graphql(
  `
  mutation ResetUserPassword($userId: ID!, $newPassword: String!) {
    result: resetUserPassword(userId: $userId, newPassword: $newPassword) {
      __typename
      ...ValidationErrorFields
    }
  }
`,
  [ValidationErrorFields],
);

const DISABLE = graphql(
  `
  mutation DisableUser($userId: ID!) {
    result: disableUser(userId: $userId) { __typename ...ValidationErrorFields }
  }
`,
  [ValidationErrorFields],
);

const ENABLE = graphql(`
  mutation EnableUser($userId: ID!) { enableUser(userId: $userId) { id } }
`);

const DELETE = graphql(
  `
  mutation DeleteUser($userId: ID!) {
    result: deleteUser(userId: $userId) { __typename ...ValidationErrorFields }
  }
`,
  [ValidationErrorFields],
);

/** The user a row acts on. */
export interface ManagedUser {
  id: string;
  username: string;
  isAdmin: boolean;
  capabilities: readonly Capability[];
  disabledAt: string | null;
}

type Outcome = {
  data?: { result?: { __typename: string; message?: string; problems?: { message: string }[] } };
  error?: { message: string };
};

/** The problem an answer reports, or undefined when it succeeded. */
function problemOf(answer: Outcome): string | undefined {
  if (answer.error) return answer.error.message;
  const result = answer.data?.result;
  if (result?.__typename !== "ValidationError") return undefined;
  return result.problems?.map((p) => p.message).join(" ") || result.message;
}

/** A user's actions on the Users page: edit capabilities, reset the password, disable, delete. */
export function UserActions(props: { user: ManagedUser; onChanged: () => void }) {
  const { user } = props;
  const [mode, setMode] = useState<"none" | "edit" | "reset">("none");
  const [isAdmin, setAdmin] = useState(user.isAdmin);
  const [capabilities, setCapabilities] = useState<Capability[]>([...user.capabilities]);
  const [password, setPassword] = useState("");
  const [problem, setProblem] = useState<string>();
  const [notice, setNotice] = useState<string>();
  const [, update] = useMutation(UPDATE);
  const [, reset] = useMutation(RESET);
  const [, disable] = useMutation(DISABLE);
  const [, enable] = useMutation(ENABLE);
  const [, remove] = useMutation(DELETE);

  const settle = (answer: Outcome, success?: string) => {
    const found = problemOf(answer);
    setProblem(found);
    setNotice(found ? undefined : success);
    if (!found) {
      setMode("none");
      props.onChanged();
    }
  };
  const save = async (event: FormEvent) => {
    event.preventDefault();
    settle(await update({ userId: user.id, capabilities, isAdmin }));
  };
  const resetPassword = async (event: FormEvent) => {
    event.preventDefault();
    const answer = await reset({ userId: user.id, newPassword: password });
    setPassword("");
    settle(answer, t("users.resetDone", { username: user.username }));
  };

  return (
    <div className="user-actions">
      {mode === "none" && (
        <span className="actions">
          <button type="button" onClick={() => setMode("edit")}>
            {t("common.edit")}
          </button>{" "}
          <button type="button" onClick={() => setMode("reset")}>
            {t("users.resetPassword")}
          </button>{" "}
          {user.disabledAt ? (
            <button
              type="button"
              onClick={async () => {
                const answer = await enable({ userId: user.id });
                settle(answer.error ? { error: answer.error } : {});
              }}
            >
              {t("users.enable")}
            </button>
          ) : (
            <ConfirmButton
              label={t("users.disable")}
              question={t("users.disableQuestion", { username: user.username })}
              confirmLabel={t("users.disable")}
              onConfirm={async () => settle(await disable({ userId: user.id }))}
            />
          )}{" "}
          <ConfirmButton
            label={t("common.delete")}
            question={t("users.deleteQuestion", { username: user.username })}
            confirmLabel={t("common.confirmYes")}
            onConfirm={async () => settle(await remove({ userId: user.id }))}
          />
        </span>
      )}
      {mode === "edit" && (
        <form onSubmit={save} aria-label={t("users.editTitle", { username: user.username })}>
          <label className="check">
            <input type="checkbox" checked={isAdmin} onChange={(e) => setAdmin(e.target.checked)} />{" "}
            {t("users.isAdmin")}
          </label>
          {!isAdmin && (
            <CapabilityPicker
              allowed={CAPABILITIES}
              value={capabilities}
              onChange={setCapabilities}
            />
          )}
          <button type="submit" className="primary">
            {t("common.save")}
          </button>{" "}
          <button type="button" onClick={() => setMode("none")}>
            {t("common.cancel")}
          </button>
        </form>
      )}
      {mode === "reset" && (
        <form
          onSubmit={resetPassword}
          aria-label={t("users.resetTitle", { username: user.username })}
        >
          <div className="field">
            <label htmlFor={`reset-${user.id}`}>{t("password.new")}</label>
            <input
              id={`reset-${user.id}`}
              type="password"
              required
              minLength={12}
              autoComplete="new-password"
              value={password}
              onChange={(e) => setPassword(e.target.value)}
            />
            <small className="muted">{t("users.resetHint")}</small>
          </div>
          <button type="submit" className="primary">
            {t("users.resetPassword")}
          </button>{" "}
          <button type="button" onClick={() => setMode("none")}>
            {t("common.cancel")}
          </button>
        </form>
      )}
      {problem && (
        <p role="alert" className="problem">
          {problem}
        </p>
      )}
      {notice && <p role="status">{notice}</p>}
    </div>
  );
}

import { useState } from "react";
import { useMutation, useQuery } from "urql";
import { graphql } from "../graphql/graphql.ts";
import { formatDateTime } from "../i18n/format.ts";
import { currentLanguage, t } from "../i18n/i18n.ts";
import { Badge } from "../ui/badge.tsx";

const SESSIONS = graphql(`
  query MySessions {
    mySessions { id createdAt lastSeenAt address userAgent method isCurrent }
  }
`);

const SIGN_OUT_OTHERS = graphql(`
  mutation SignOutEverywhereElse { signOutEverywhereElse }
`);

const REVOKE = graphql(`
  mutation RevokeSession($id: ID!) { revokeSession(id: $id) }
`);

/** Your signed-in sessions: where and when, sign out one, or every one but this. */
export function SessionsPage() {
  const locale = currentLanguage();
  const [{ data, error }, reload] = useQuery({ query: SESSIONS, requestPolicy: "network-only" });
  const [, signOutOthers] = useMutation(SIGN_OUT_OTHERS);
  const [, revoke] = useMutation(REVOKE);
  const [notice, setNotice] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const refresh = () => reload({ requestPolicy: "network-only" });

  const endOthers = async () => {
    setProblem(undefined);
    const result = await signOutOthers({});
    if (result.error) setProblem(result.error.message);
    else
      setNotice(t("sessions.signedOutOthers", { count: result.data?.signOutEverywhereElse ?? 0 }));
    refresh();
  };
  const end = async (id: string) => {
    setProblem(undefined);
    const result = await revoke({ id });
    if (result.error) setProblem(result.error.message);
    refresh();
  };
  const sessions = data?.mySessions ?? [];

  return (
    <div>
      <h1>{t("sessions.title")}</h1>
      <p className="muted">{t("sessions.intro")}</p>
      <button
        type="button"
        className="danger"
        onClick={() => void endOthers()}
        disabled={sessions.length < 2}
      >
        {t("sessions.signOutOthers")}
      </button>
      {notice && <p role="status">{notice}</p>}
      {(problem || error) && <p role="alert">{problem ?? error?.message}</p>}
      <table className="list">
        <thead>
          <tr>
            <th scope="col">{t("sessions.browser")}</th>
            <th scope="col">{t("sessions.address")}</th>
            <th scope="col">{t("sessions.started")}</th>
            <th scope="col">{t("sessions.lastSeen")}</th>
            <th scope="col">{t("sessions.method")}</th>
            <th scope="col">{t("common.actions")}</th>
          </tr>
        </thead>
        <tbody>
          {sessions.map((session) => (
            <tr key={session.id}>
              <td>
                {session.userAgent ?? t("sessions.unknown")}{" "}
                {session.isCurrent && <Badge tone="info">{t("sessions.current")}</Badge>}
              </td>
              <td>{session.address ?? t("sessions.unknown")}</td>
              <td>{formatDateTime(locale, session.createdAt)}</td>
              <td>{formatDateTime(locale, session.lastSeenAt)}</td>
              <td>
                {session.method === "password" ? t("sessions.methodPassword") : session.method}
              </td>
              <td>
                {!session.isCurrent && (
                  <button type="button" onClick={() => void end(session.id)}>
                    {t("sessions.revoke")}
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

import { type Capability, DEFAULT_CAPABILITIES } from "@hyperlens/shared";
import { type FormEvent, useState } from "react";
import { useMutation, useQuery } from "urql";
import type { Viewer } from "../app.tsx";
import { graphql } from "../graphql/graphql.ts";
import { ValidationErrorFields } from "../graphql/validation-error.ts";
import { formatDateTime } from "../i18n/format.ts";
import { currentLanguage, t } from "../i18n/i18n.ts";
import { Badge } from "../ui/badge.tsx";
import { ConfirmButton } from "../ui/confirm-button.tsx";
import { CapabilityPicker } from "./capability-picker.tsx";
import { GroupPicker } from "./group-picker.tsx";

const TOKENS = graphql(`
  query ApiTokens {
    apiTokens {
      id name prefix capabilities createdAt expiresAt lastUsedAt revokedAt createdBy { username }
    }
  }
`);

const CREATE = graphql(
  `
  mutation CreateApiToken(
    $name: String!
    $capabilities: [Capability!]!
    $expiresAt: DateTime
    $allConnections: Boolean
    $groupIds: [ID!]
  ) {
    result: createApiToken(
      name: $name
      capabilities: $capabilities
      expiresAt: $expiresAt
      allConnections: $allConnections
      groupIds: $groupIds
    ) {
      __typename
      ...ValidationErrorFields
      ... on MutationCreateApiTokenSuccess { data { token apiToken { id } } }
    }
  }
`,
  [ValidationErrorFields],
);

// The groups a token may be limited to: those whose connections its creator sees.
const MY_GROUPS = graphql(`
  query MyConnectionGroups { viewer { allConnections connectionGroups { id name } } }
`);

const REVOKE = graphql(`
  mutation RevokeApiToken($id: ID!) { revokeApiToken(id: $id) }
`);

/** API tokens: create one (its secret shown this once), list them, revoke. */
export function ApiTokensPage(props: { viewer: Viewer }) {
  const locale = currentLanguage();
  const [{ data, error }, reload] = useQuery({
    query: TOKENS,
    requestPolicy: "network-only",
  });
  const [, create] = useMutation(CREATE);
  const [, revoke] = useMutation(REVOKE);
  const [name, setName] = useState("");
  // View and starting syncs by default, as far as the creator holds them; either can be unticked.
  const [capabilities, setCapabilities] = useState<Capability[]>(() =>
    DEFAULT_CAPABILITIES.filter((c) => props.viewer.capabilities.includes(c)),
  );
  const [expiresAt, setExpiresAt] = useState("");
  const [{ data: mine }] = useQuery({ query: MY_GROUPS });
  const [allConnections, setAllConnections] = useState(true);
  const [groupIds, setGroupIds] = useState<string[]>([]);
  const [created, setCreated] = useState<string>();
  const [problem, setProblem] = useState<string>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(undefined);
    const result = await create({
      name,
      capabilities,
      expiresAt: expiresAt ? new Date(`${expiresAt}T23:59:59`).toISOString() : null,
      allConnections,
      groupIds: allConnections ? [] : groupIds,
    });
    const outcome = result.data?.result;
    if (outcome && "data" in outcome) {
      setCreated(outcome.data.token);
      setName("");
      reload({ requestPolicy: "network-only" });
    } else setProblem(outcome && "message" in outcome ? outcome.message : result.error?.message);
  };

  return (
    <div>
      <h1>{t("nav.tokens")}</h1>
      <p className="muted">{t("tokens.intro")}</p>
      <form onSubmit={submit} className="card">
        <h2>{t("tokens.create")}</h2>
        <div className="field">
          <label htmlFor="token-name">{t("tokens.name")}</label>
          <input id="token-name" required value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <CapabilityPicker
          allowed={props.viewer.capabilities}
          value={capabilities}
          onChange={setCapabilities}
        />
        <GroupPicker
          legend={t("groups.tokenSees")}
          groups={mine?.viewer?.connectionGroups ?? []}
          value={groupIds}
          onChange={setGroupIds}
          allConnections={allConnections}
          onAllChange={setAllConnections}
        />
        <div className="field">
          <label htmlFor="token-expires">{t("tokens.expires")}</label>
          <input
            id="token-expires"
            type="date"
            value={expiresAt}
            onChange={(e) => setExpiresAt(e.target.value)}
          />
        </div>
        {problem && (
          <p role="alert" className="problem">
            {problem}
          </p>
        )}
        <button type="submit" className="primary">
          {t("tokens.create")}
        </button>
      </form>
      {created && (
        <div className="card tone-ok" role="status">
          <p>{t("tokens.shownOnce")}</p>
          <code className="secret">{created}</code>{" "}
          <button type="button" onClick={() => void navigator.clipboard?.writeText(created)}>
            {t("common.copy")}
          </button>{" "}
          <button type="button" onClick={() => setCreated(undefined)}>
            {t("common.close")}
          </button>
        </div>
      )}
      {error && <p role="alert">{error.message}</p>}
      <table className="list">
        <thead>
          <tr>
            <th scope="col">{t("tokens.name")}</th>
            <th scope="col">{t("tokens.prefix")}</th>
            <th scope="col">{t("account.capabilities")}</th>
            <th scope="col">{t("tokens.lastUsed")}</th>
            <th scope="col">{t("tokens.expires")}</th>
            <th scope="col">
              <span className="visually-hidden">{t("common.actions")}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {data?.apiTokens.map((token) => (
            <tr key={token.id}>
              <td>
                {token.name} <span className="muted">{token.createdBy.username}</span>
              </td>
              <td className="mono">{token.prefix}…</td>
              <td>{token.capabilities.map((c) => t(`capability.${c}`)).join(", ")}</td>
              <td>{formatDateTime(locale, token.lastUsedAt)}</td>
              <td>{formatDateTime(locale, token.expiresAt)}</td>
              <td>
                {token.revokedAt ? (
                  <Badge tone="neutral">{t("tokens.revoked")}</Badge>
                ) : (
                  <ConfirmButton
                    label={t("tokens.revoke")}
                    question={t("tokens.revokeQuestion", { name: token.name })}
                    confirmLabel={t("tokens.revokeYes")}
                    onConfirm={async () => {
                      await revoke({ id: token.id });
                      reload({ requestPolicy: "network-only" });
                    }}
                  />
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

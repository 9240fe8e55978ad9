import { useState } from "react";
import { useMutation } from "urql";
import { graphql } from "../graphql/graphql.ts";
import { t } from "../i18n/i18n.ts";
import { isFiltered, paramsFromTableQuery, tableQueryFromParams } from "../servers/vm-filter.ts";
import { AppLink } from "../shell/app-link.tsx";
import {
  ansibleSnippet,
  asksForRemoved,
  exportQuery,
  prometheusSnippet,
  type SnippetInput,
  webhookVerifySnippet,
} from "./snippets.ts";

const CREATE_TOKEN = graphql(`
  mutation CreateIntegrationToken($name: String!) {
    result: createApiToken(name: $name, capabilities: [VIEW_INVENTORY]) {
      __typename
      ... on MutationCreateApiTokenSuccess { data { token } }
      ... on ValidationError { message }
    }
  }
`);

/** One snippet with its heading, what it is for, and a copy button. */
function Snippet(props: { id: string; title: string; help: string; text: string }) {
  const [isCopied, setCopied] = useState(false);
  const copy = async () => {
    await navigator.clipboard?.writeText(props.text);
    setCopied(true);
  };
  return (
    <section aria-labelledby={props.id}>
      <h2 id={props.id}>{props.title}</h2>
      <p className="muted">{props.help}</p>
      <textarea
        className="snippet"
        readOnly
        spellCheck={false}
        rows={props.text.split("\n").length}
        value={props.text}
        aria-labelledby={props.id}
      />
      <button type="button" onClick={() => void copy()}>
        {isCopied ? t("integrations.copied") : t("integrations.copy")}
      </button>
    </section>
  );
}

/**
 * Ansible, Prometheus and webhook snippets for the Servers page's current filter, with a
 * read-only token made on request (shown here once, as on the API tokens page).
 */
export function IntegrationsPage(props: { params: URLSearchParams }) {
  const { filter } = tableQueryFromParams(props.params);
  const [token, setToken] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const [port, setPort] = useState(9100);
  const [, createToken] = useMutation(CREATE_TOKEN);
  const makeToken = async () => {
    setProblem(undefined);
    const name = `${t("integrations.tokenName")} ${new Date().toISOString().slice(0, 16)}`;
    const result = await createToken({ name });
    const answer = result.data?.result;
    if (answer?.__typename === "MutationCreateApiTokenSuccess") setToken(answer.data.token);
    else setProblem(result.error?.message ?? (answer && "message" in answer ? answer.message : ""));
  };
  const input: SnippetInput = { origin: window.location.origin, token, filter, port };
  const query = exportQuery(filter).toString();
  const serversLink = `/servers?${paramsFromTableQuery({ filter, orderBy: { field: "NAME", direction: "ASC" } })}`;

  return (
    <div>
      <h1>{t("integrations.title")}</h1>
      <p className="muted">{t("integrations.intro")}</p>
      <p>
        {isFiltered(filter)
          ? t("integrations.filter", { query: decodeURIComponent(query.replaceAll("+", " ")) })
          : t("integrations.noFilter")}{" "}
        <AppLink href={serversLink}>{t("integrations.changeFilter")}</AppLink>
      </p>
      {asksForRemoved(filter) && <p className="muted">{t("integrations.removedNotExported")}</p>}
      <p>
        {token ? (
          <strong role="status">{t("integrations.tokenMade")}</strong>
        ) : (
          <button type="button" onClick={() => void makeToken()}>
            {t("integrations.makeToken")}
          </button>
        )}
      </p>
      {problem !== undefined && <p role="alert">{problem}</p>}
      <Snippet
        id="ansible-snippet"
        title={t("integrations.ansible")}
        help={t("integrations.ansibleHelp")}
        text={ansibleSnippet(input)}
      />
      <label>
        {t("integrations.port")}{" "}
        <input
          type="number"
          min={1}
          max={65535}
          value={port}
          onChange={(event) => {
            const next = Number(event.target.value);
            if (Number.isInteger(next) && next >= 1 && next <= 65535) setPort(next);
          }}
        />
      </label>
      <Snippet
        id="prometheus-snippet"
        title={t("integrations.prometheus")}
        help={t("integrations.prometheusHelp")}
        text={prometheusSnippet(input)}
      />
      <Snippet
        id="webhook-snippet"
        title={t("integrations.webhooks")}
        help={t("integrations.webhooksHelp")}
        text={webhookVerifySnippet()}
      />
    </div>
  );
}

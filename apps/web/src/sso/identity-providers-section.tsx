import { CAPABILITIES, type Capability } from "@hyperlens/shared";
import { type FormEvent, useState } from "react";
import { useMutation, useQuery } from "urql";
import { CapabilityPicker } from "../account/capability-picker.tsx";
import { graphql, type ResultOf } from "../graphql/graphql.ts";
import { ValidationErrorFields } from "../graphql/validation-error.ts";
import { t } from "../i18n/i18n.ts";
import { Badge } from "../ui/badge.tsx";

const PROVIDERS = graphql(`
  query IdentityProviders {
    isLocalPasswordSignInEnabled
    identityProviders {
      slug kind displayName logoText isEnabled createJustInTime isReadOnly hasSecret redirectUri
      oidc { issuer clientId scopes subjectClaim usernameClaim emailClaim groupsClaim }
      groupMappings { group capabilities isAdmin allConnections connectionGroups }
    }
  }
`);

const CREATE = graphql(
  `
  mutation CreateIdentityProvider($input: IdentityProviderInput!) {
    result: createIdentityProvider(input: $input) { __typename ...ValidationErrorFields }
  }
`,
  [ValidationErrorFields],
);

const UPDATE = graphql(
  `
  mutation UpdateIdentityProvider($input: IdentityProviderInput!) {
    result: updateIdentityProvider(input: $input) { __typename ...ValidationErrorFields }
  }
`,
  [ValidationErrorFields],
);

const DELETE = graphql(`
  mutation DeleteIdentityProvider($slug: String!) {
    result: deleteIdentityProvider(slug: $slug) { __typename }
  }
`);

const SET_PASSWORD_SIGN_IN = graphql(`
  mutation SetLocalPasswordSignIn($isEnabled: Boolean!) { setLocalPasswordSignIn(isEnabled: $isEnabled) }
`);

type Provider = ResultOf<typeof PROVIDERS>["identityProviders"][number];

interface MappingDraft {
  group: string;
  capabilities: Capability[];
  isAdmin: boolean;
  allConnections: boolean;
  connectionGroups: string;
}

interface Draft {
  isNew: boolean;
  slug: string;
  displayName: string;
  logoText: string;
  isEnabled: boolean;
  createJustInTime: boolean;
  issuer: string;
  clientId: string;
  scopes: string;
  subjectClaim: string;
  usernameClaim: string;
  emailClaim: string;
  groupsClaim: string;
  secret: string;
  mappings: MappingDraft[];
}

function draftOf(p: Provider | undefined): Draft {
  return {
    isNew: !p,
    slug: p?.slug ?? "",
    displayName: p?.displayName ?? "",
    logoText: p?.logoText ?? "",
    isEnabled: p?.isEnabled ?? true,
    createJustInTime: p?.createJustInTime ?? false,
    issuer: p?.oidc?.issuer ?? "",
    clientId: p?.oidc?.clientId ?? "",
    scopes: p?.oidc?.scopes ?? "openid profile email",
    subjectClaim: p?.oidc?.subjectClaim ?? "sub",
    usernameClaim: p?.oidc?.usernameClaim ?? "preferred_username",
    emailClaim: p?.oidc?.emailClaim ?? "email",
    groupsClaim: p?.oidc?.groupsClaim ?? "groups",
    secret: "",
    mappings: (p?.groupMappings ?? []).map((m) => ({
      ...m,
      capabilities: [...m.capabilities],
      connectionGroups: m.connectionGroups.join(", "),
    })),
  };
}

function TextField(props: {
  id: string;
  label: string;
  value: string;
  onChange: (value: string) => void;
  type?: string;
  placeholder?: string;
  isRequired?: boolean;
  isDisabled?: boolean;
}) {
  return (
    <div className="field">
      <label htmlFor={props.id}>{props.label}</label>
      <input
        id={props.id}
        type={props.type ?? "text"}
        value={props.value}
        placeholder={props.placeholder}
        required={props.isRequired}
        disabled={props.isDisabled}
        autoComplete="off"
        spellCheck={false}
        onChange={(e) => props.onChange(e.target.value)}
      />
    </div>
  );
}

function ProviderForm(props: { provider: Provider | undefined; onDone: () => void }) {
  const [draft, setDraft] = useState<Draft>(() => draftOf(props.provider));
  const [problem, setProblem] = useState<string>();
  const [, create] = useMutation(CREATE);
  const [, update] = useMutation(UPDATE);
  const set = <K extends keyof Draft>(key: K, value: Draft[K]) =>
    setDraft((d) => ({ ...d, [key]: value }));
  const setMapping = (index: number, change: Partial<MappingDraft>) =>
    set(
      "mappings",
      draft.mappings.map((m, i) => (i === index ? { ...m, ...change } : m)),
    );

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(undefined);
    const input = {
      slug: draft.slug.trim(),
      kind: "OIDC" as const,
      displayName: draft.displayName,
      logoText: draft.logoText || null,
      isEnabled: draft.isEnabled,
      createJustInTime: draft.createJustInTime,
      oidc: {
        issuer: draft.issuer.trim(),
        clientId: draft.clientId.trim(),
        scopes: draft.scopes.trim(),
        subjectClaim: draft.subjectClaim.trim(),
        usernameClaim: draft.usernameClaim.trim(),
        emailClaim: draft.emailClaim.trim(),
        groupsClaim: draft.groupsClaim.trim(),
      },
      secret: draft.secret || null,
      groupMappings: draft.mappings.map((m) => ({
        group: m.group,
        capabilities: m.capabilities,
        isAdmin: m.isAdmin,
        allConnections: m.allConnections,
        connectionGroups: m.connectionGroups
          .split(",")
          .map((g) => g.trim())
          .filter(Boolean),
      })),
    };
    const result = draft.isNew ? await create({ input }) : await update({ input });
    const outcome = result.data?.result;
    if (outcome?.__typename === "ValidationError")
      setProblem(outcome.problems.map((p) => `${p.field ?? ""}: ${p.message}`).join(" "));
    else if (result.error) setProblem(result.error.message);
    else props.onDone();
  };

  const id = (name: string) => `idp-${name}`;
  return (
    <form className="card" onSubmit={submit} aria-label={t("sso.providerForm")}>
      <h3>{draft.isNew ? t("sso.addProvider") : t("sso.editProvider", { name: draft.slug })}</h3>
      <TextField
        id={id("slug")}
        label={t("sso.slug")}
        value={draft.slug}
        isRequired
        isDisabled={!draft.isNew}
        onChange={(v) => set("slug", v)}
      />
      <TextField
        id={id("name")}
        label={t("sso.displayName")}
        value={draft.displayName}
        isRequired
        onChange={(v) => set("displayName", v)}
      />
      <TextField
        id={id("logo")}
        label={t("sso.logoText")}
        value={draft.logoText}
        onChange={(v) => set("logoText", v)}
      />
      <TextField
        id={id("issuer")}
        label={t("sso.issuer")}
        value={draft.issuer}
        isRequired
        placeholder="https://sso.example.com/realms/main"
        onChange={(v) => set("issuer", v)}
      />
      <TextField
        id={id("client")}
        label={t("sso.clientId")}
        value={draft.clientId}
        isRequired
        onChange={(v) => set("clientId", v)}
      />
      <TextField
        id={id("secret")}
        label={t("sso.clientSecret")}
        type="password"
        value={draft.secret}
        placeholder={props.provider?.hasSecret ? t("sso.secretKept") : undefined}
        onChange={(v) => set("secret", v)}
      />
      <TextField
        id={id("scopes")}
        label={t("sso.scopes")}
        value={draft.scopes}
        onChange={(v) => set("scopes", v)}
      />
      <TextField
        id={id("groups-claim")}
        label={t("sso.groupsClaim")}
        value={draft.groupsClaim}
        onChange={(v) => set("groupsClaim", v)}
      />
      <TextField
        id={id("username-claim")}
        label={t("sso.usernameClaim")}
        value={draft.usernameClaim}
        onChange={(v) => set("usernameClaim", v)}
      />
      <TextField
        id={id("subject-claim")}
        label={t("sso.subjectClaim")}
        value={draft.subjectClaim}
        onChange={(v) => set("subjectClaim", v)}
      />
      <TextField
        id={id("email-claim")}
        label={t("sso.emailClaim")}
        value={draft.emailClaim}
        onChange={(v) => set("emailClaim", v)}
      />
      <label className="check">
        <input
          type="checkbox"
          checked={draft.isEnabled}
          onChange={(e) => set("isEnabled", e.target.checked)}
        />{" "}
        {t("sso.isEnabled")}
      </label>
      <label className="check">
        <input
          type="checkbox"
          checked={draft.createJustInTime}
          onChange={(e) => set("createJustInTime", e.target.checked)}
        />{" "}
        {t("sso.createJustInTime")}
      </label>
      <fieldset>
        <legend>{t("sso.groupMappings")}</legend>
        <p className="muted">{t("sso.groupMappingsHint")}</p>
        {draft.mappings.map((m, index) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: rows have no identity but their place
          <fieldset key={index} className="card">
            <legend>{t("sso.mapping", { number: index + 1 })}</legend>
            <TextField
              id={id(`group-${index}`)}
              label={t("sso.group")}
              value={m.group}
              isRequired
              onChange={(v) => setMapping(index, { group: v })}
            />
            <CapabilityPicker
              allowed={CAPABILITIES}
              value={m.capabilities}
              onChange={(capabilities) => setMapping(index, { capabilities })}
            />
            <label className="check">
              <input
                type="checkbox"
                checked={m.isAdmin}
                onChange={(e) => setMapping(index, { isAdmin: e.target.checked })}
              />{" "}
              {t("users.isAdmin")}
            </label>
            <label className="check">
              <input
                type="checkbox"
                checked={m.allConnections}
                onChange={(e) => setMapping(index, { allConnections: e.target.checked })}
              />{" "}
              {t("sso.allConnections")}
            </label>
            <TextField
              id={id(`connection-groups-${index}`)}
              label={t("sso.connectionGroups")}
              value={m.connectionGroups}
              onChange={(v) => setMapping(index, { connectionGroups: v })}
            />
            <button
              type="button"
              className="danger"
              onClick={() =>
                set(
                  "mappings",
                  draft.mappings.filter((_, i) => i !== index),
                )
              }
            >
              {t("sso.removeMapping")}
            </button>
          </fieldset>
        ))}
        <button
          type="button"
          onClick={() =>
            set("mappings", [
              ...draft.mappings,
              {
                group: "",
                capabilities: [],
                isAdmin: false,
                allConnections: false,
                connectionGroups: "",
              },
            ])
          }
        >
          {t("sso.addMapping")}
        </button>
      </fieldset>
      {problem && (
        <p role="alert" className="problem">
          {problem}
        </p>
      )}
      <div className="actions">
        <button type="submit" className="primary">
          {t("sso.save")}
        </button>
        <button type="button" onClick={props.onDone}>
          {t("sso.cancel")}
        </button>
      </div>
    </form>
  );
}

/** Identity providers and the password sign-in switch (MANAGE_USERS). */
export function IdentityProvidersSection() {
  const [{ data, error }, reload] = useQuery({ query: PROVIDERS, requestPolicy: "network-only" });
  const [editing, setEditing] = useState<Provider | "new">();
  const [, remove] = useMutation(DELETE);
  const [, setPasswordSignIn] = useMutation(SET_PASSWORD_SIGN_IN);
  // Shown at once, not after the round trip: a controlled box would otherwise spring back.
  const [isPasswordOn, setPasswordOn] = useState<boolean>();
  const refresh = () => reload({ requestPolicy: "network-only" });
  const done = () => {
    setEditing(undefined);
    refresh();
  };
  return (
    <section aria-labelledby="identity-providers-title">
      <h2 id="identity-providers-title">{t("sso.title")}</h2>
      {error && <p role="alert">{error.message}</p>}
      <label className="check">
        <input
          type="checkbox"
          checked={isPasswordOn ?? data?.isLocalPasswordSignInEnabled ?? true}
          onChange={async (e) => {
            const isEnabled = e.target.checked;
            setPasswordOn(isEnabled);
            const result = await setPasswordSignIn({ isEnabled });
            if (result.error) setPasswordOn(undefined);
            refresh();
          }}
        />{" "}
        {t("sso.passwordSignIn")}
      </label>
      <p className="muted">{t("sso.passwordSignInHint")}</p>
      {editing === undefined && (
        <button type="button" className="primary" onClick={() => setEditing("new")}>
          {t("sso.addProvider")}
        </button>
      )}
      {editing !== undefined && (
        <ProviderForm provider={editing === "new" ? undefined : editing} onDone={done} />
      )}
      <table className="list">
        <thead>
          <tr>
            <th scope="col">{t("sso.displayName")}</th>
            <th scope="col">{t("sso.slug")}</th>
            <th scope="col">{t("sso.redirectUri")}</th>
            <th scope="col">{t("sso.actions")}</th>
          </tr>
        </thead>
        <tbody>
          {data?.identityProviders.map((p) => (
            <tr key={p.slug}>
              <td>
                {p.displayName} {!p.isEnabled && <Badge tone="neutral">{t("sso.disabled")}</Badge>}{" "}
                {p.isReadOnly && <Badge tone="info">{t("sso.fromEnvironment")}</Badge>}
              </td>
              <td>
                <code>{p.slug}</code> ({p.kind})
              </td>
              <td>{p.redirectUri ? <code>{p.redirectUri}</code> : t("sso.noPublicUrl")}</td>
              <td>
                {!p.isReadOnly && p.kind === "OIDC" && (
                  <div className="actions">
                    <button type="button" onClick={() => setEditing(p)}>
                      {t("sso.edit")}
                    </button>
                    <button
                      type="button"
                      className="danger"
                      onClick={async () => {
                        if (!window.confirm(t("sso.deleteQuestion", { name: p.displayName })))
                          return;
                        await remove({ slug: p.slug });
                        refresh();
                      }}
                    >
                      {t("sso.delete")}
                    </button>
                  </div>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

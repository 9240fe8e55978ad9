import type { ReactNode } from "react";
import { useQuery } from "urql";
import { graphql } from "../graphql/graphql.ts";
import { type MessageKey, t } from "../i18n/i18n.ts";

const SIGN_IN_OPTIONS = graphql(`
  query SignInOptions { signInProviders { slug kind displayName logoText } isLocalPasswordSignInEnabled }
`);

// The codes /auth/oidc/<slug>/callback sends back in ?signInError=; anything else is "failed".
const ERRORS: Record<string, MessageKey> = {
  PROVIDER_UNAVAILABLE: "sso.error.PROVIDER_UNAVAILABLE",
  NOT_CONFIGURED: "sso.error.NOT_CONFIGURED",
  STATE_INVALID: "sso.error.STATE_INVALID",
  STATE_EXPIRED: "sso.error.STATE_EXPIRED",
  PROVIDER_ERROR: "sso.error.PROVIDER_ERROR",
  TOKEN_REJECTED: "sso.error.TOKEN_REJECTED",
  CLAIMS_MISSING: "sso.error.CLAIMS_MISSING",
  NO_ACCOUNT: "sso.error.NO_ACCOUNT",
  ACCOUNT_DISABLED: "sso.error.ACCOUNT_DISABLED",
  RATE_LIMITED: "sso.error.RATE_LIMITED",
};

function signInError(): string | undefined {
  const code = new URLSearchParams(window.location.search).get("signInError");
  if (!code) return undefined;
  return t(ERRORS[code] ?? "sso.error.FAILED");
}

/** Where the browser comes back after the provider: the page it is on (the server checks it). */
function startUrl(slug: string): string {
  const here = `${window.location.pathname}${window.location.hash}`;
  const returnTo = here === "/" ? "" : `?returnTo=${encodeURIComponent(here)}`;
  return `/auth/oidc/${encodeURIComponent(slug)}/start${returnTo}`;
}

/**
 * "Sign in with <provider>" buttons above the password form (`children`). With password sign-in
 * turned off, the form folds away behind a disclosure: administrators still use it.
 */
export function ProviderSignIn(props: { children: ReactNode }) {
  const [{ data }] = useQuery({ query: SIGN_IN_OPTIONS, requestPolicy: "network-only" });
  const error = signInError();
  const providers = (data?.signInProviders ?? []).filter((p) => p.kind === "OIDC");
  const isPasswordOn = data?.isLocalPasswordSignInEnabled ?? true;
  // A directory's people sign in with the same form (its "Sign in with" choice): never folded away.
  const hasDirectory = (data?.signInProviders ?? []).some((p) => p.kind === "LDAP");
  return (
    <div className="provider-sign-in">
      {error && (
        <p role="alert" className="problem">
          {error}
        </p>
      )}
      {providers.length > 0 && (
        <nav className="card auth sso-providers" aria-label={t("sso.providersLabel")}>
          {!isPasswordOn && <h1>{t("auth.signInTitle")}</h1>}
          <ul className="plain">
            {providers.map((p) => (
              <li key={p.slug}>
                <a className="button primary sso-button" href={startUrl(p.slug)}>
                  {p.logoText && (
                    <span className="sso-logo" aria-hidden="true">
                      {p.logoText}
                    </span>
                  )}
                  {t("sso.signInWith", { name: p.displayName })}
                </a>
              </li>
            ))}
          </ul>
        </nav>
      )}
      {isPasswordOn || hasDirectory || providers.length === 0 ? (
        props.children
      ) : (
        <details className="admin-sign-in">
          <summary>{t("sso.administratorSignIn")}</summary>
          {props.children}
        </details>
      )}
    </div>
  );
}

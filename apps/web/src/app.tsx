import { canRunSync } from "@hyperlens/shared";
import { useEffect } from "react";
import { useQuery } from "urql";
import { AccountRoutes } from "./account/account-routes.tsx";
import { ChangePasswordPage } from "./account/change-password-page.tsx";
import { TwoFactorSection } from "./account/two-factor-section.tsx";
import { ChangesPage } from "./changes/changes-page.tsx";
import { graphql, type ResultOf } from "./graphql/graphql.ts";
import { HelpPage } from "./help/help-page.tsx";
import { t, useLanguage } from "./i18n/i18n.ts";
import { IntegrationsPage } from "./integrations/integrations-page.tsx";
import { ServersPage } from "./servers/servers-page.tsx";
import { ConnectionFields } from "./settings/connection-fields.ts";
import { SettingsPage } from "./settings/settings-page.tsx";
import { CredentialsForm } from "./shell/credentials-form.tsx";
import { Header } from "./shell/header.tsx";
import { visiblePages } from "./shell/nav.tsx";
import { NotPermitted } from "./shell/not-permitted.tsx";
import { useRoute } from "./shell/router.ts";
import { ProviderSignIn } from "./sso/provider-sign-in.tsx";
import { SyncProvider, useSync } from "./sync/sync-context.tsx";
import { WebhooksPage } from "./webhooks/webhooks-page.tsx";

const STATUS = graphql(`
  query Status {
    isSetupRequired
    viewer { username isAdmin capabilities mustChangePassword mustEnrolTwoFactor }
  }
`);

const CONNECTIONS = graphql(
  `
  query Connections($kind: ConnectionKind) { connections(kind: $kind) { ...ConnectionFields } }
`,
  [ConnectionFields],
);

/** Who is signed in, and what they may do. */
export type Viewer = NonNullable<ResultOf<typeof STATUS>["viewer"]>;

function SignedIn(props: { viewer: Viewer; onSignedOut: () => void; onChanged: () => void }) {
  const route = useRoute();
  const { settledCount } = useSync();
  const pages = visiblePages(props.viewer);
  const isPermitted = pages.includes(route.page);
  // A page asked for by its address but not permitted says so; the root shows the first allowed.
  const isRefused = !isPermitted && route.isNamed;
  const page = isPermitted || isRefused ? route.page : (pages[0] ?? "help");
  const [{ data }, reloadConnections] = useQuery({
    query: CONNECTIONS,
    requestPolicy: "cache-and-network",
    pause: !pages.includes("settings"),
  });
  const connections = data?.connections ?? [];
  const reload = () => reloadConnections({ requestPolicy: "network-only" });
  // biome-ignore lint/correctness/useExhaustiveDependencies: a finished sync changes last-sync status
  useEffect(() => {
    if (settledCount > 0) reloadConnections({ requestPolicy: "network-only" });
  }, [settledCount]);
  return (
    <>
      <Header viewer={props.viewer} pages={pages} current={page} onSignedOut={props.onSignedOut} />
      <main id="main" className="page">
        {isRefused ? (
          <NotPermitted />
        ) : (
          <>
            {page === "servers" && route.subpage === "changes" && (
              <ChangesPage params={route.query} />
            )}
            {page === "servers" && route.subpage !== "changes" && (
              <ServersPage
                params={route.query}
                connections={connections}
                capabilities={props.viewer.capabilities}
              />
            )}
            {page === "integrations" && <IntegrationsPage params={route.query} />}
            {page === "settings" && (
              <SettingsPage viewer={props.viewer} connections={connections} onChanged={reload} />
            )}
            {page === "webhooks" && <WebhooksPage connections={connections} />}
            {(page === "tokens" ||
              page === "users" ||
              page === "groups" ||
              page === "sessions" ||
              page === "password") && (
              <AccountRoutes page={page} viewer={props.viewer} onChanged={props.onChanged} />
            )}
            {page === "help" && <HelpPage />}
          </>
        )}
      </main>
    </>
  );
}

/** The app: first-run setup, sign-in, then the pages the viewer may see. */
export function App() {
  const language = useLanguage();
  const [{ data, error }, refresh] = useQuery({
    query: STATUS,
    requestPolicy: "network-only",
  });
  const reload = () => refresh({ requestPolicy: "network-only" });
  const viewer = data?.viewer;
  return (
    // Keyed by language so every string re-renders in the new one.
    <div className="app" key={language}>
      <a className="skip-link" href="#main">
        {t("shell.skipToContent")}
      </a>
      {error && <p role="alert">{error.message}</p>}
      {data && !viewer && (
        <>
          <Header viewer={undefined} pages={[]} current="help" onSignedOut={reload} />
          <main id="main" className="page auth-page">
            {data.isSetupRequired ? (
              <CredentialsForm isSetup onDone={reload} />
            ) : (
              <ProviderSignIn>
                <CredentialsForm isSetup={false} onDone={reload} />
              </ProviderSignIn>
            )}
          </main>
        </>
      )}
      {viewer?.mustChangePassword && (
        // An administrator reset the password: nothing else answers until it is changed.
        <>
          <Header viewer={viewer} pages={[]} current="password" onSignedOut={reload} />
          <main id="main" className="page auth-page">
            <ChangePasswordPage isForced onChanged={reload} />
          </main>
        </>
      )}
      {viewer && !viewer.mustChangePassword && viewer.mustEnrolTwoFactor && (
        // The administrator requires two-factor: until it is on, enrolling is all there is.
        <>
          <Header viewer={viewer} pages={[]} current="help" onSignedOut={reload} />
          <main id="main" className="page auth-page">
            <TwoFactorSection onChanged={reload} />
          </main>
        </>
      )}
      {viewer && !viewer.mustChangePassword && !viewer.mustEnrolTwoFactor && (
        <SyncProvider
          isEnabled={viewer.capabilities.includes("VIEW_INVENTORY")}
          canSync={canRunSync(viewer.capabilities)}
        >
          <SignedIn viewer={viewer} onSignedOut={reload} onChanged={reload} />
        </SyncProvider>
      )}
    </div>
  );
}

import type { Viewer } from "../app.tsx";
import { IdentityProvidersSection } from "../sso/identity-providers-section.tsx";
import { ApiTokensPage } from "./api-tokens-page.tsx";
import { ChangePasswordPage } from "./change-password-page.tsx";
import { GroupsPage } from "./groups-page.tsx";
import { SessionsPage } from "./sessions-page.tsx";
import { TwoFactorSection } from "./two-factor-section.tsx";
import { UsersPage } from "./users-page.tsx";

/** The pages of accounts: API tokens, users, connection groups, your sessions, your password. */
export type AccountPage = "tokens" | "users" | "groups" | "sessions" | "password";

/** The account pages. */
export function AccountRoutes(props: { page: AccountPage; viewer: Viewer; onChanged: () => void }) {
  switch (props.page) {
    case "tokens":
      return (
        <>
          <ApiTokensPage viewer={props.viewer} />
          <TwoFactorSection />
        </>
      );
    case "users":
      return (
        <>
          <UsersPage />
          <IdentityProvidersSection />
        </>
      );
    case "groups":
      return <GroupsPage />;
    case "sessions":
      return <SessionsPage />;
    case "password":
      return <ChangePasswordPage isForced={false} onChanged={props.onChanged} />;
  }
}

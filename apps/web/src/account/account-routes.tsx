import type { Viewer } from "../app.tsx";
import { ApiTokensPage } from "./api-tokens-page.tsx";
import { TwoFactorSection } from "./two-factor-section.tsx";
import { UsersPage } from "./users-page.tsx";

/** The API tokens and users pages. */
export function AccountRoutes(props: { page: "tokens" | "users"; viewer: Viewer }) {
  if (props.page !== "tokens") return <UsersPage />;
  return (
    <>
      <ApiTokensPage viewer={props.viewer} />
      <TwoFactorSection />
    </>
  );
}

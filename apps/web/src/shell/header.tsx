import { useMutation } from "urql";
import type { Viewer } from "../app.tsx";
import { graphql } from "../graphql/graphql.ts";
import { t } from "../i18n/i18n.ts";
import { LanguagePicker } from "./language-picker.tsx";
import { Nav } from "./nav.tsx";
import type { Page } from "./router.ts";
import { ThemeToggle } from "./theme-toggle.tsx";

const SIGN_OUT = graphql(`
  mutation SignOut { signOut }
`);

/** The top bar: name, navigation, language, theme, and who is signed in. */
export function Header(props: {
  viewer: Viewer | undefined;
  pages: readonly Page[];
  current: Page;
  onSignedOut: () => void;
}) {
  const [, signOut] = useMutation(SIGN_OUT);
  return (
    <header className="topbar">
      <span className="brand">{t("app.title")}</span>
      {props.viewer && <Nav pages={props.pages} current={props.current} />}
      <div className="topbar-tools">
        <LanguagePicker />
        <ThemeToggle />
        {props.viewer && (
          <>
            <span className="muted">
              {t("app.signedInAs", { username: props.viewer.username })}
            </span>
            <button type="button" onClick={() => void signOut({}).then(props.onSignedOut)}>
              {t("auth.signOut")}
            </button>
          </>
        )}
      </div>
    </header>
  );
}

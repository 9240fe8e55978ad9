import { useEffect, useRef, useState } from "react";
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
  const [isMenuOpen, setMenuOpen] = useState(false);
  const menuButton = useRef<HTMLButtonElement>(null);
  // A page chosen in the menu closes it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: the page changing is the trigger
  useEffect(() => setMenuOpen(false), [props.current]);
  useEffect(() => {
    if (!isMenuOpen) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape") return;
      setMenuOpen(false);
      menuButton.current?.focus();
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [isMenuOpen]);
  return (
    <header className="topbar">
      <span className="brand">{t("app.title")}</span>
      {props.viewer && (
        // Shown on a phone only, where the navigation and tools fold into a drawer (§9.54).
        <button
          type="button"
          className="menu-button"
          ref={menuButton}
          aria-expanded={isMenuOpen}
          aria-controls="topbar-menu"
          onClick={() => setMenuOpen(!isMenuOpen)}
        >
          {t("shell.menu")}
        </button>
      )}
      <div
        id="topbar-menu"
        className={props.viewer ? "topbar-menu is-foldable" : "topbar-menu"}
        data-open={isMenuOpen ? "" : undefined}
      >
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
      </div>
    </header>
  );
}

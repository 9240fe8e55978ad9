import { type ReactNode, useEffect, useRef } from "react";
import { t } from "../i18n/i18n.ts";
import { wrappedFocusTarget } from "./focus-trap.ts";

/**
 * A side panel over the page; Escape or the close button dismisses it. While open, Tab stays
 * inside it; when it closes, focus goes back to what opened it (docs/behaviour.md §9.49).
 */
export function Drawer(props: { title: string; onClose: () => void; children: ReactNode }) {
  const panel = useRef<HTMLDivElement>(null);
  const { onClose } = props;
  useEffect(() => {
    const opener = document.activeElement;
    panel.current?.focus();
    return () => {
      // TRAP: docs/behaviour.md §9.49 — without it focus falls to <body> and a keyboard user starts over at the top.
      if (opener instanceof HTMLElement && opener.isConnected) opener.focus();
    };
  }, []);
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      // A menu inside took this Escape (useEscapeClosesMenus).
      if (event.key === "Escape" && !event.defaultPrevented) onClose();
      if (event.key !== "Tab" || !panel.current) return;
      const target = wrappedFocusTarget(panel.current, document.activeElement, event.shiftKey);
      if (target) {
        event.preventDefault();
        target.focus();
      }
    };
    window.addEventListener("keydown", onKey);
    return () => window.removeEventListener("keydown", onKey);
  }, [onClose]);
  return (
    <div className="drawer-backdrop">
      <button
        type="button"
        className="drawer-dismiss"
        aria-label={t("common.close")}
        tabIndex={-1}
        onClick={onClose}
      />
      <div
        className="drawer"
        role="dialog"
        aria-modal="true"
        aria-label={props.title}
        ref={panel}
        tabIndex={-1}
      >
        <header className="drawer-head">
          <h2>{props.title}</h2>
          <button type="button" onClick={onClose}>
            {t("common.close")}
          </button>
        </header>
        <div className="drawer-body">{props.children}</div>
      </div>
    </div>
  );
}

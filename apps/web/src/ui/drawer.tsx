import { type ReactNode, useEffect, useRef } from "react";
import { t } from "../i18n/i18n.ts";

/** A side panel over the page; Escape or the close button dismisses it. */
export function Drawer(props: { title: string; onClose: () => void; children: ReactNode }) {
  const panel = useRef<HTMLDivElement>(null);
  const { onClose } = props;
  useEffect(() => {
    panel.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key === "Escape") onClose();
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

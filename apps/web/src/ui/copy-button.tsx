import { useState } from "react";
import { t } from "../i18n/i18n.ts";

/**
 * A small Copy button beside a value: its accessible name says what it copies ("Copy address
 * 10.0.0.1"), and "Copied" shows (and is announced) once the clipboard took it.
 */
export function CopyButton(props: { value: string; label: string }) {
  const [isCopied, setCopied] = useState(false);
  return (
    <>
      <button
        type="button"
        className="copy"
        aria-label={props.label}
        onClick={() => void navigator.clipboard?.writeText(props.value).then(() => setCopied(true))}
      >
        {t("common.copy")}
      </button>
      <span role="status" className="copied">
        {isCopied ? t("detail.copied") : ""}
      </span>
    </>
  );
}

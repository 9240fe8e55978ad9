import { useState } from "react";
import { t } from "../i18n/i18n.ts";

/** Recovery codes, shown once: copy, download, and a button to say they are saved. */
export function RecoveryCodes(props: { codes: readonly string[]; onSaved: () => void }) {
  const [isCopied, setCopied] = useState(false);
  const text = `${props.codes.join("\n")}\n`;
  const download = () => {
    const url = URL.createObjectURL(new Blob([text], { type: "text/plain" }));
    const link = document.createElement("a");
    link.href = url;
    link.download = "hyperlens-recovery-codes.txt";
    link.click();
    URL.revokeObjectURL(url);
  };
  return (
    <section className="card" aria-label={t("twoFactor.recoveryTitle")}>
      <h3>{t("twoFactor.recoveryTitle")}</h3>
      <p>{t("twoFactor.recoveryIntro")}</p>
      <ul className="recovery-codes">
        {props.codes.map((code) => (
          <li key={code}>
            <code>{code}</code>
          </li>
        ))}
      </ul>
      <div className="actions">
        <button
          type="button"
          onClick={() => void navigator.clipboard?.writeText(text).then(() => setCopied(true))}
        >
          {isCopied ? t("twoFactor.copied") : t("twoFactor.copy")}
        </button>
        <button type="button" onClick={download}>
          {t("twoFactor.download")}
        </button>
        <button type="button" className="primary" onClick={props.onSaved}>
          {t("twoFactor.saved")}
        </button>
      </div>
    </section>
  );
}

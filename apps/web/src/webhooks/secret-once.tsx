import { useState } from "react";
import { t } from "../i18n/i18n.ts";
import { AppLink } from "../shell/app-link.tsx";

/**
 * An endpoint's signing secret, shown this once (after create or rotate): copy it into the
 * receiver, and check signatures as the Integrations page shows.
 */
export function SecretOnce(props: { url: string; secret: string; onClose: () => void }) {
  const [isCopied, setCopied] = useState(false);
  return (
    <section className="card tone-ok" aria-labelledby="webhook-secret-title">
      <h2 id="webhook-secret-title">{t("webhooks.secretTitle", { url: props.url })}</h2>
      <p>{t("webhooks.secretShownOnce")}</p>
      <code className="secret">{props.secret}</code>{" "}
      <button
        type="button"
        onClick={() =>
          void navigator.clipboard?.writeText(props.secret).then(() => setCopied(true))
        }
      >
        {isCopied ? t("integrations.copied") : t("common.copy")}
      </button>{" "}
      <button type="button" onClick={props.onClose}>
        {t("common.close")}
      </button>
      <p className="muted">
        {t("webhooks.verifyPointer")}{" "}
        <AppLink href="/integrations">{t("webhooks.verifyLink")}</AppLink>
      </p>
    </section>
  );
}

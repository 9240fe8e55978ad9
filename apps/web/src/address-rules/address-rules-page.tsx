import { useState } from "react";
import { useMutation, useQuery } from "urql";
import { problemsOfAnswer } from "../graphql/validation-error.ts";
import { t } from "../i18n/i18n.ts";
import { ADDRESS_RULES_SETTINGS, SET_GLOBAL_ADDRESS_RULES } from "./rules-documents.ts";
import { rulesKey } from "./rules-draft.ts";
import { RulesWorkbench } from "./rules-workbench.tsx";
import { useRulesPreview } from "./use-rules-preview.ts";

/**
 * Settings → Address rules, for administrators (docs/behaviour.md §9.41): the global rules,
 * previewed over every connection that inherits them before they are saved, and a way back to
 * the shipped rules.
 */
export function AddressRulesPage() {
  const [{ data, error }, reload] = useQuery({
    query: ADDRESS_RULES_SETTINGS,
    requestPolicy: "network-only",
  });
  const [, setGlobal] = useMutation(SET_GLOBAL_ADDRESS_RULES);
  const preview = useRulesPreview();
  const [mode, setMode] = useState<"own" | "fallback">("own");
  const [isSaved, setSaved] = useState(false);
  const settings = data?.addressRules;

  return (
    <section aria-labelledby="address-rules-title">
      <h2 id="address-rules-title">{t("addressRules.title")}</h2>
      <p>{t("addressRules.intro")}</p>
      {error && <p role="alert">{error.message}</p>}
      {!settings && !error && <p>{t("common.loading")}</p>}
      {settings?.isShipped && <p className="muted">{t("addressRules.shippedNote")}</p>}
      {isSaved && <p role="status">{t("addressRules.saved")}</p>}
      {settings && (
        <RulesWorkbench
          // A save reloads the rules: the editor starts again from what is stored.
          key={`${settings.isShipped}:${rulesKey(settings.global)}`}
          idPrefix="global-rules"
          label={t("addressRules.title")}
          suggestions={settings.suggestedInterfacePatterns}
          stored={{ rules: settings.global }}
          startRules={settings.global}
          mode={mode}
          fallbackText={t("addressRules.resetExplained")}
          saveLabel={mode === "own" ? t("addressRules.save") : t("addressRules.resetToShipped")}
          preview={(change) => preview(null, change.rules)}
          save={async (change) => {
            setSaved(false);
            const problems = problemsOfAnswer(await setGlobal({ rules: change.rules }));
            if (!problems) {
              setSaved(true);
              setMode("own");
              reload({ requestPolicy: "network-only" });
            }
            return problems;
          }}
        >
          {mode === "own" && !settings.isShipped && (
            <div className="actions">
              <button type="button" onClick={() => setMode("fallback")}>
                {t("addressRules.resetToShipped")}
              </button>
            </div>
          )}
          {mode === "fallback" && (
            <div className="actions">
              <button type="button" onClick={() => setMode("own")}>
                {t("addressRules.keepEditing")}
              </button>
            </div>
          )}
        </RulesWorkbench>
      )}
    </section>
  );
}

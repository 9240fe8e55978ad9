import { useState } from "react";
import { useMutation, useQuery } from "urql";
import { problemsOfAnswer } from "../graphql/validation-error.ts";
import { t } from "../i18n/i18n.ts";
import { CONNECTION_ADDRESS_RULES, SET_CONNECTION_ADDRESS_RULES } from "./rules-documents.ts";
import { rulesKey } from "./rules-draft.ts";
import { RulesWorkbench } from "./rules-workbench.tsx";
import { useRulesPreview } from "./use-rules-preview.ts";

/**
 * A connection's address rules on its Settings card, for those who may manage it
 * (docs/behaviour.md §9.41): the global rules, or its own, each change previewed before it is
 * saved.
 */
export function ConnectionRules(props: { connectionId: string; name: string }) {
  const [isOpen, setOpen] = useState(false);
  return (
    <details className="connection-rules" onToggle={(e) => setOpen(e.currentTarget.open)}>
      <summary>{t("addressRules.title")}</summary>
      {isOpen && <ConnectionRulesEditor {...props} />}
    </details>
  );
}

function ConnectionRulesEditor(props: { connectionId: string; name: string }) {
  const [{ data, error }, reload] = useQuery({
    query: CONNECTION_ADDRESS_RULES,
    variables: { id: props.connectionId },
    requestPolicy: "network-only",
  });
  const [, setRules] = useMutation(SET_CONNECTION_ADDRESS_RULES);
  const preview = useRulesPreview();
  const [isSaved, setSaved] = useState(false);
  const current = data?.connection?.addressRules;
  const [chosen, setChosen] = useState<"own" | "fallback">();
  if (error) return <p role="alert">{error.message}</p>;
  if (!data || !current) return <p>{t("common.loading")}</p>;
  const mode = chosen ?? (current.isInherited ? "fallback" : "own");
  const choiceName = `rules-choice-${props.connectionId}`;

  return (
    <>
      {isSaved && <p role="status">{t("addressRules.saved")}</p>}
      <RulesWorkbench
        key={`${current.isInherited}:${rulesKey(current.rules)}`}
        idPrefix={`rules-${props.connectionId}`}
        label={t("addressRules.connection.choice", { name: props.name })}
        suggestions={data.addressRules.suggestedInterfacePatterns}
        stored={current.isInherited ? { rules: null } : { rules: current.rules }}
        startRules={current.rules}
        mode={mode}
        fallbackText={
          current.isInherited
            ? t("addressRules.connection.usesGlobal")
            : t("addressRules.connection.backToGlobal")
        }
        saveLabel={mode === "own" ? t("addressRules.save") : t("addressRules.connection.useGlobal")}
        preview={(change) => preview(props.connectionId, change.rules)}
        save={async (change) => {
          setSaved(false);
          const answer = await setRules({ connectionId: props.connectionId, rules: change.rules });
          const problems = problemsOfAnswer(answer);
          if (!problems) {
            setSaved(true);
            setChosen(undefined);
            reload({ requestPolicy: "network-only" });
          }
          return problems;
        }}
      >
        <fieldset className="capabilities">
          <legend>{t("addressRules.connection.choice", { name: props.name })}</legend>
          <label className="check">
            <input
              type="radio"
              name={choiceName}
              checked={mode === "fallback"}
              onChange={() => setChosen("fallback")}
            />{" "}
            {t("addressRules.connection.useGlobal")}
          </label>
          <label className="check">
            <input
              type="radio"
              name={choiceName}
              checked={mode === "own"}
              onChange={() => setChosen("own")}
            />{" "}
            {t("addressRules.connection.own")}
          </label>
        </fieldset>
      </RulesWorkbench>
    </>
  );
}

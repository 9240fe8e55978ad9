import { CAPABILITIES, type Capability } from "@hyperlens/shared";
import { t } from "../i18n/i18n.ts";

/** Checkboxes for capabilities, limited to those the viewer may grant. */
export function CapabilityPicker(props: {
  allowed: readonly Capability[];
  value: readonly Capability[];
  onChange: (value: Capability[]) => void;
}) {
  return (
    <fieldset className="capabilities">
      <legend>{t("account.capabilities")}</legend>
      {CAPABILITIES.filter((c) => props.allowed.includes(c)).map((capability) => (
        <label key={capability} className="check">
          <input
            type="checkbox"
            checked={props.value.includes(capability)}
            onChange={(e) =>
              props.onChange(
                e.target.checked
                  ? [...props.value, capability]
                  : props.value.filter((c) => c !== capability),
              )
            }
          />{" "}
          {t(`capability.${capability}`)}
        </label>
      ))}
    </fieldset>
  );
}

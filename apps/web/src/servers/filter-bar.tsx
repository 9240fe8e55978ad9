// The Servers page's filter bar (docs/behaviour.md §9.43): each active filter a removable chip,
// and "Add filter" to choose a filter and one of the values that exist for it.
import { useState } from "react";
import { t } from "../i18n/i18n.ts";
import { chosenLabel, FACETS, type FacetContext } from "./filter-facets.ts";
import { useFacetValues } from "./use-facet-values.ts";
import type { VmFilter } from "./vm-filter.ts";

/** Chips for the active filters and the menu that adds one. */
export function FilterBar(props: {
  filter: VmFilter;
  connections: FacetContext["connections"];
  onChange: (filter: VmFilter) => void;
}) {
  const context: FacetContext = { connections: props.connections, values: useFacetValues() };
  const [facetId, setFacetId] = useState(FACETS[0]?.id ?? "");
  const [value, setValue] = useState("");
  const facet = FACETS.find((f) => f.id === facetId);
  const options = facet?.options(context) ?? [];

  return (
    <div className="filter-bar">
      <ul className="chips" aria-label={t("servers.filter.active")}>
        {FACETS.filter((f) => f.chosen(props.filter).length > 0).map((f) => {
          const name = t(f.label);
          const chosen = f.chosen(props.filter);
          // Several values: each is taken off on its own, besides the whole filter (§9.43).
          const values = chosen.map((v, at) => {
            const value = chosenLabel(f, v, context);
            return (
              <span key={v} className="chip-value">
                {at > 0 && ", "}
                {value}
                {chosen.length > 1 && (
                  <button
                    type="button"
                    aria-label={t("servers.filter.removeValue", { name, value })}
                    onClick={() => props.onChange(f.remove(props.filter, v))}
                  >
                    ×
                  </button>
                )}
              </span>
            );
          });
          return (
            <li key={f.id} className="chip">
              {name}: {values}{" "}
              <button
                type="button"
                aria-label={t("servers.filter.remove", { name })}
                onClick={() => props.onChange(f.clear(props.filter))}
              >
                ×
              </button>
            </li>
          );
        })}
      </ul>
      <details className="menu">
        <summary>{t("servers.filter.add")}</summary>
        <form
          onSubmit={(e) => {
            e.preventDefault();
            const chosen = value || options[0]?.value;
            if (!facet || !chosen) return;
            props.onChange(facet.add(props.filter, chosen));
            setValue("");
          }}
        >
          <label>
            {t("servers.filter.which")}{" "}
            <select
              value={facetId}
              onChange={(e) => {
                setFacetId(e.target.value);
                setValue("");
              }}
            >
              {FACETS.map((f) => (
                <option key={f.id} value={f.id}>
                  {t(f.label)}
                </option>
              ))}
            </select>
          </label>
          <label>
            {t("servers.filter.value")}{" "}
            <select value={value} onChange={(e) => setValue(e.target.value)}>
              {options.map((option) => (
                <option key={option.value} value={option.value}>
                  {option.label}
                </option>
              ))}
            </select>
          </label>
          <button type="submit" disabled={options.length === 0}>
            {t("servers.filter.apply")}
          </button>
        </form>
      </details>
    </div>
  );
}

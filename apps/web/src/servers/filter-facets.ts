// The filters the Servers page's filter bar offers (docs/behaviour.md §9.43): for each, its label,
// the values chosen in a filter, the values it offers, and how choosing or removing one changes the
// filter. Every filter of the API is here once.
import { type MessageKey, t } from "../i18n/i18n.ts";
import {
  CONFIRMATION_VALUES,
  KINDS,
  type KindChoice,
  kindsOf,
  SOURCES,
  STATES,
  TEXT_FILTERS,
  type TextFilterParam,
  type VmFilter,
  withKinds,
} from "./vm-filter.ts";

/** What the bar knows to offer values from: the viewer's connections and the API's values. */
export interface FacetContext {
  connections: readonly { id: string; name: string }[];
  /** Distinct values per text filter and tags, from virtualMachineFacets. */
  values: Partial<Record<TextFilterParam | "tag", readonly string[]>>;
}

/** A value to offer, with what to show for it. */
export interface FacetOption {
  value: string;
  label: string;
}

/** One filter of the bar. */
export interface Facet {
  id: string;
  label: MessageKey;
  /** The values chosen in this filter; empty when it is not active. */
  chosen: (filter: VmFilter) => string[];
  options: (context: FacetContext) => FacetOption[];
  /** The filter with this value chosen too (or instead, for a one-value filter). */
  add: (filter: VmFilter, value: string) => VmFilter;
  /** The filter without this filter. */
  clear: (filter: VmFilter) => VmFilter;
  /** The filter without this one value; without the filter once no value is left. */
  remove: (filter: VmFilter, value: string) => VmFilter;
}

const without = (filter: VmFilter, key: keyof VmFilter): VmFilter => {
  const { [key]: _, ...rest } = filter;
  return rest;
};

const labelled = (values: readonly string[], label: (value: string) => string): FacetOption[] =>
  values.map((value) => ({ value, label: label(value) }));

/** A filter of several enum or id values (source, state, connection, confirmation, tags). */
function listFacet(
  id: string,
  label: MessageKey,
  key: "source" | "state" | "confirmation" | "connectionId" | "tags",
  options: (context: FacetContext) => FacetOption[],
): Facet {
  const chosen = (filter: VmFilter): string[] => [...((filter[key] as string[] | null) ?? [])];
  const clear = (filter: VmFilter) => without(filter, key);
  return {
    id,
    label,
    chosen,
    options,
    add: (filter, value) => ({ ...filter, [key]: [...new Set([...chosen(filter), value])] }),
    clear,
    remove: (filter, value) => {
      const left = chosen(filter).filter((v) => v !== value);
      return left.length ? { ...filter, [key]: left } : clear(filter);
    },
  };
}

function textFacet(param: TextFilterParam, label: MessageKey): Facet {
  const key = TEXT_FILTERS[param];
  return {
    id: param,
    label,
    chosen: (filter) => (filter[key] ? [filter[key]] : []),
    options: (context) => labelled(context.values[param] ?? [], (value) => value),
    add: (filter, value) => ({ ...filter, [key]: value }),
    clear: (filter) => without(filter, key),
    remove: (filter) => without(filter, key),
  };
}

const kindFacet: Facet = {
  id: "kind",
  label: "servers.filter.kind",
  chosen: (filter) => kindsOf(filter),
  options: () => labelled(KINDS, (kind) => t(`servers.filter.kinds.${kind as KindChoice}`)),
  add: (filter, value) => withKinds(filter, [...kindsOf(filter), value as KindChoice]),
  clear: (filter) => withKinds(filter, []),
  remove: (filter, value) =>
    withKinds(
      filter,
      kindsOf(filter).filter((kind) => kind !== value),
    ),
};

const removedFacet: Facet = {
  id: "removed",
  label: "servers.filter.removed",
  chosen: (filter) => (filter.includeRemoved ? ["include"] : []),
  options: () => [{ value: "include", label: t("servers.filter.removedShown") }],
  add: (filter) => ({ ...filter, includeRemoved: true }),
  clear: (filter) => without(filter, "includeRemoved"),
  remove: (filter) => without(filter, "includeRemoved"),
};

/** Every filter, in the order the "Add filter" menu lists them. */
export const FACETS: readonly Facet[] = [
  listFacet("source", "servers.column.source", "source", () =>
    labelled(SOURCES, (source) => t(`source.${source as (typeof SOURCES)[number]}`)),
  ),
  listFacet("connection", "servers.column.connection", "connectionId", (context) =>
    context.connections.map((c) => ({ value: c.id, label: c.name })),
  ),
  listFacet("state", "servers.column.state", "state", () =>
    labelled(STATES, (state) => t(`state.${state as (typeof STATES)[number]}`)),
  ),
  kindFacet,
  textFacet("node", "servers.filter.node"),
  textFacet("cluster", "servers.filter.cluster"),
  textFacet("host", "servers.filter.host"),
  textFacet("datacenter", "servers.filter.datacenter"),
  textFacet("org", "servers.filter.org"),
  textFacet("vdc", "servers.filter.vdc"),
  listFacet("tag", "detail.tags", "tags", (context) =>
    labelled(context.values.tag ?? [], (tag) => tag),
  ),
  textFacet("os", "detail.guestOs"),
  listFacet("confirmation", "detail.confirmation", "confirmation", () =>
    labelled(CONFIRMATION_VALUES, (c) =>
      t(`confirmation.${c as (typeof CONFIRMATION_VALUES)[number]}`),
    ),
  ),
  removedFacet,
];

/** How a chosen value reads on its chip: an option's label, else the value itself. */
export function chosenLabel(facet: Facet, value: string, context: FacetContext): string {
  return facet.options(context).find((option) => option.value === value)?.label ?? value;
}

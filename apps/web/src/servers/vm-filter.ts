// The Servers page's search, filters and sort live in the URL, so "Show VMs" links, reloads and
// the back button keep them (docs/behaviour.md §9.43).
import { CONFIRMATIONS, CONNECTION_KINDS, GUEST_KINDS, POWER_STATES } from "@hyperlens/shared";
import type { SchemaType } from "../graphql/graphql.ts";

type OrderField = SchemaType<"VirtualMachineOrderField">;
type OrderDirection = SchemaType<"OrderDirection">;
/** The filter the Servers page sends, as the schema's VirtualMachineFilter input. */
export type VmFilter = SchemaType<"VirtualMachineFilter">;

/** The sources the Source filter offers, in the order it shows them. */
export const SOURCES = CONNECTION_KINDS;
/** The power states the State filter offers, in the order it shows them. */
export const STATES = POWER_STATES;
/** The confirmations the Confirmation filter offers. */
export const CONFIRMATION_VALUES = CONFIRMATIONS;
/** What the Kind filter offers: the API's kinds, and templates (its isTemplate). */
export const KINDS = [...GUEST_KINDS, "TEMPLATE"] as const;
export type KindChoice = (typeof KINDS)[number];
const ORDER_FIELDS: readonly OrderField[] = [
  "NAME",
  "SOURCE",
  "STATE",
  "KIND",
  "LOCATION",
  "ADDRESS",
  "CPU",
  "MEMORY",
  "DISK",
  "CONNECTION",
  "LAST_SEEN",
  "CHANGED",
];

/** The filters that hold one text value, by their URL parameter. */
export const TEXT_FILTERS = {
  node: "nodeName",
  cluster: "clusterName",
  datacenter: "datacenterName",
  host: "hostName",
  org: "orgName",
  vdc: "vdcName",
  os: "guestOs",
} as const satisfies Record<string, keyof VmFilter>;
export type TextFilterParam = keyof typeof TEXT_FILTERS;

/** What the table shows: a filter and one sort. */
export interface TableQuery {
  filter: VmFilter;
  orderBy: { field: OrderField; direction: OrderDirection };
}

function listOf<T extends string>(value: string | null, allowed: readonly T[]): T[] | undefined {
  const items = (value ?? "")
    .split(",")
    .filter((item): item is T => (allowed as readonly string[]).includes(item));
  return items.length > 0 ? [...new Set(items)] : undefined;
}

/** The URL parameter that brings templates into the list; without it they are left out (docs/behaviour.md §9.2). */
const TEMPLATES_PARAM = ["templates", "include"] as const;
const REMOVED_PARAM = ["removed", "include"] as const;

/** The kinds a filter lets through; none chosen is the default, machines without templates. */
export function kindsOf(filter: VmFilter): KindChoice[] {
  if (filter.isTemplate === true) return ["TEMPLATE"];
  const machines = filter.kind ?? [];
  if (filter.isTemplate === false) return [...machines];
  return machines.length ? [...machines, "TEMPLATE"] : [...KINDS];
}

/** The filter letting exactly these kinds through (templates of a chosen kind included). */
export function withKinds(filter: VmFilter, kinds: readonly KindChoice[]): VmFilter {
  const { kind: _, isTemplate: __, ...rest } = filter;
  const machines = GUEST_KINDS.filter((k) => kinds.includes(k));
  const hasTemplates = kinds.includes("TEMPLATE");
  return {
    ...rest,
    ...(machines.length === 1 ? { kind: machines } : {}),
    ...(hasTemplates && machines.length === 0 ? { isTemplate: true } : {}),
    ...(hasTemplates ? {} : { isTemplate: false }),
  };
}

/** Reads the table query from URL parameters, ignoring anything unknown. */
export function tableQueryFromParams(params: URLSearchParams): TableQuery {
  const search = params.get("q")?.trim();
  const kinds =
    listOf(params.get("kind"), KINDS) ??
    (params.get(TEMPLATES_PARAM[0]) === TEMPLATES_PARAM[1] ? [...KINDS] : []);
  const filter = withKinds({}, kinds);
  if (search) filter.search = search;
  const source = listOf(params.get("source"), SOURCES);
  if (source) filter.source = source;
  const state = listOf(params.get("state"), STATES);
  if (state) filter.state = state;
  const confirmation = listOf(params.get("confirmation"), CONFIRMATION_VALUES);
  if (confirmation) filter.confirmation = confirmation;
  const connections = (params.get("connection") ?? "").split(",").filter(Boolean);
  if (connections.length) filter.connectionId = [...new Set(connections)];
  const tags = [...new Set(params.getAll("tag").filter(Boolean))];
  if (tags.length) filter.tags = tags;
  for (const [param, field] of Object.entries(TEXT_FILTERS)) {
    const value = params.get(param)?.trim();
    if (value) filter[field] = value;
  }
  if (params.get(REMOVED_PARAM[0]) === REMOVED_PARAM[1]) filter.includeRemoved = true;
  const field = ORDER_FIELDS.find((f) => f === params.get("sort")) ?? "NAME";
  const direction = params.get("dir") === "DESC" ? "DESC" : "ASC";
  return { filter, orderBy: { field, direction } };
}

/** Writes the table query as URL parameters (defaults left out). */
export function paramsFromTableQuery(query: TableQuery): URLSearchParams {
  const params = new URLSearchParams();
  const { filter, orderBy } = query;
  if (filter.search) params.set("q", filter.search);
  if (filter.source?.length) params.set("source", filter.source.join(","));
  if (filter.state?.length) params.set("state", filter.state.join(","));
  const kinds = kindsOf(filter);
  if (kinds.length === KINDS.length) params.set(...TEMPLATES_PARAM);
  else if (kinds.length) params.set("kind", kinds.join(","));
  if (filter.connectionId?.length) params.set("connection", filter.connectionId.join(","));
  if (filter.confirmation?.length) params.set("confirmation", filter.confirmation.join(","));
  for (const tag of filter.tags ?? []) params.append("tag", tag);
  for (const [param, field] of Object.entries(TEXT_FILTERS)) {
    const value = filter[field];
    if (value) params.set(param, value);
  }
  if (filter.includeRemoved) params.set(...REMOVED_PARAM);
  if (orderBy.field !== "NAME") params.set("sort", orderBy.field);
  if (orderBy.direction !== "ASC") params.set("dir", orderBy.direction);
  return params;
}

/** The sort after clicking a column: the same column flips direction, a new one starts ASC. */
export function toggleSort(
  current: TableQuery["orderBy"],
  field: OrderField,
): TableQuery["orderBy"] {
  if (current.field !== field) return { field, direction: "ASC" };
  return { field, direction: current.direction === "ASC" ? "DESC" : "ASC" };
}

/** True when any filter narrows the list (the empty state then says so instead of "sync"). */
export function isFiltered(filter: VmFilter): boolean {
  return Boolean(
    filter.search ||
      filter.source?.length ||
      filter.state?.length ||
      filter.connectionId?.length ||
      filter.kind?.length ||
      filter.isTemplate === true ||
      filter.confirmation?.length ||
      filter.tags?.length ||
      Object.values(TEXT_FILTERS).some((field) => filter[field]),
  );
}

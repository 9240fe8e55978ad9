// The Servers page's search, filters and sort live in the URL, so "Show VMs" links, reloads and
// the back button keep them.
import { CONNECTION_KINDS, POWER_STATES } from "@hyperlens/shared";
import type { SchemaType } from "../graphql/graphql.ts";

type OrderField = SchemaType<"VirtualMachineOrderField">;
type OrderDirection = SchemaType<"OrderDirection">;
/** The filter the Servers page sends, as the schema's VirtualMachineFilter input. */
type VmFilter = SchemaType<"VirtualMachineFilter">;

/** The sources the Source filter offers, in the order it shows them. */
export const SOURCES = CONNECTION_KINDS;
/** The power states the State filter offers, in the order it shows them. */
export const STATES = POWER_STATES;
const ORDER_FIELDS: readonly OrderField[] = [
  "NAME",
  "SOURCE",
  "STATE",
  "CPU",
  "MEMORY",
  "LAST_SEEN",
  "CHANGED",
];

/** What the table shows: a filter and one sort. */
export interface TableQuery {
  filter: VmFilter;
  orderBy: { field: OrderField; direction: OrderDirection };
}

function listOf<T extends string>(value: string | null, allowed: readonly T[]): T[] | undefined {
  const items = (value ?? "")
    .split(",")
    .filter((item): item is T => (allowed as readonly string[]).includes(item));
  return items.length > 0 ? items : undefined;
}

/** The URL parameter that brings templates into the list; without it they are left out (docs/behaviour.md §9.2). */
const TEMPLATES_PARAM = ["templates", "include"] as const;

/** Reads the table query from URL parameters, ignoring anything unknown. */
export function tableQueryFromParams(params: URLSearchParams): TableQuery {
  const search = params.get("q")?.trim();
  const connection = params.get("connection");
  const filter: VmFilter = {};
  if (params.get(TEMPLATES_PARAM[0]) !== TEMPLATES_PARAM[1]) filter.isTemplate = false;
  if (search) filter.search = search;
  const source = listOf(params.get("source"), SOURCES);
  if (source) filter.source = source;
  const state = listOf(params.get("state"), STATES);
  if (state) filter.state = state;
  if (connection) filter.connectionId = [connection];
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
  if (filter.isTemplate !== false) params.set(...TEMPLATES_PARAM);
  const connection = filter.connectionId?.[0];
  if (connection) params.set("connection", connection);
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
    filter.search || filter.source?.length || filter.state?.length || filter.connectionId?.length,
  );
}

// How the Servers table is laid out, in the URL beside its filter (docs/behaviour.md §9.45, §9.46):
// `group=` what the rows are grouped by, `cols=` which columns show in which order. A saved link
// or view brings the same layout back; widths and density stay with the browser.
import type { SchemaType } from "../graphql/graphql.ts";
import { type ColumnId, columnsFromList, DEFAULT_VISIBLE } from "./columns.ts";

/** What the rows can be grouped by, as the URL spells it, in the order the menu offers it. */
export const GROUP_BYS = ["source", "cluster", "node", "org", "vdc", "tag"] as const;
/** One way of grouping, as the URL spells it. */
export type GroupBy = (typeof GROUP_BYS)[number];

/** The layout the URL holds. */
export interface TableView {
  group: GroupBy | undefined;
  /** Columns in display order; undefined: the URL names none (the browser's choice applies). */
  columns: ColumnId[] | undefined;
}

const GROUP_PARAM = "group";
const COLUMNS_PARAM = "cols";

/** Reads the layout from URL parameters; an unknown grouping or column is left out. */
export function viewFromParams(params: URLSearchParams): TableView {
  const group = GROUP_BYS.find((by) => by === params.get(GROUP_PARAM));
  const cols = params.get(COLUMNS_PARAM);
  return { group, columns: cols === null ? undefined : columnsFromList(cols) };
}

/** `params` with the layout written in: no grouping and the default columns are left out. */
export function withViewParams(params: URLSearchParams, view: TableView): URLSearchParams {
  const next = new URLSearchParams(params);
  next.delete(GROUP_PARAM);
  next.delete(COLUMNS_PARAM);
  if (view.group) next.set(GROUP_PARAM, view.group);
  if (view.columns && !isDefaultColumns(view.columns))
    next.set(COLUMNS_PARAM, view.columns.join(","));
  return next;
}

function isDefaultColumns(columns: readonly ColumnId[]): boolean {
  return (
    columns.length === DEFAULT_VISIBLE.length &&
    columns.every((id, index) => id === DEFAULT_VISIBLE[index])
  );
}

/** The API's name of a grouping. */
export function apiGroupBy(group: GroupBy): SchemaType<"VirtualMachineGroupBy"> {
  return group.toUpperCase() as Uppercase<GroupBy>;
}

/** `columns` with `id` moved one place towards the start (-1) or the end (+1). */
export function moveColumn(columns: readonly ColumnId[], id: ColumnId, step: -1 | 1): ColumnId[] {
  const from = columns.indexOf(id);
  const to = from + step;
  if (from < 0 || to < 0 || to >= columns.length) return [...columns];
  const next = [...columns];
  next.splice(from, 1);
  next.splice(to, 0, id);
  return next;
}

/**
 * The step in the columns' order that moves a column toward a side of the screen: a
 * right-to-left page lays the columns out from the right, so its left is later (§9.46).
 */
export function stepToward(side: "left" | "right", direction: "ltr" | "rtl"): -1 | 1 {
  return (side === "left") === (direction === "ltr") ? -1 : 1;
}

/** `columns` with `id` put where `before` is (dragged onto it). */
export function dropColumn(
  columns: readonly ColumnId[],
  id: ColumnId,
  before: ColumnId,
): ColumnId[] {
  if (id === before || !columns.includes(id) || !columns.includes(before)) return [...columns];
  const without = columns.filter((c) => c !== id);
  const at = without.indexOf(before) + (columns.indexOf(id) < columns.indexOf(before) ? 1 : 0);
  without.splice(at, 0, id);
  return without;
}

/** `columns` with `id` shown or hidden; a newly shown column goes where the default order puts it. */
export function toggleColumn(
  columns: readonly ColumnId[],
  id: ColumnId,
  isShown: boolean,
): ColumnId[] {
  if (!isShown) return id === "name" ? [...columns] : columns.filter((c) => c !== id);
  if (columns.includes(id)) return [...columns];
  const rank = DEFAULT_VISIBLE.indexOf(id);
  const at = columns.findIndex((c) => DEFAULT_VISIBLE.indexOf(c) > rank);
  const next = [...columns];
  next.splice(at < 0 ? next.length : at, 0, id);
  return next;
}

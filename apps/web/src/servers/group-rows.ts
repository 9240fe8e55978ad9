// The grouped table as one list (docs/behaviour.md §9.45): a header row per group, then the rows an
// expanded group has loaded and, while it has more, one row standing for the rest. The one
// virtualised list scrolls through all of it, so grouping 50,000 guests costs no more to draw than
// listing them.

/** A group's key as the API answers it; null for the guests with no value. */
export type GroupKey = string | null;

/** One group with its guest count, as virtualMachineGroups answers it. */
export interface Group {
  key: GroupKey;
  count: number;
}

/** What an expanded group has loaded so far. */
export interface GroupRows<T> {
  rows: readonly T[];
  hasMore: boolean;
}

/** One line of the table. */
export type TableItem<T> =
  | { kind: "group"; key: GroupKey; count: number; isExpanded: boolean }
  | { kind: "row"; row: T; groupKey?: GroupKey }
  | { kind: "more"; groupKey: GroupKey };

/** A Map/Set key for a group key: null is kept apart from any string. */
export function groupId(key: GroupKey): string {
  return key === null ? "\u0000" : `=${key}`;
}

/** The rows of an ungrouped list as table lines. */
export function plainItems<T>(rows: readonly T[]): TableItem<T>[] {
  return rows.map((row) => ({ kind: "row", row }));
}

/** Every group's header, each expanded group's loaded rows, and a "more" line while it has more. */
export function flattenGroups<T>(
  groups: readonly Group[],
  expanded: ReadonlySet<string>,
  loaded: ReadonlyMap<string, GroupRows<T>>,
): TableItem<T>[] {
  const items: TableItem<T>[] = [];
  for (const group of groups) {
    const id = groupId(group.key);
    const isExpanded = expanded.has(id);
    items.push({ kind: "group", key: group.key, count: group.count, isExpanded });
    if (!isExpanded) continue;
    const rows = loaded.get(id);
    for (const row of rows?.rows ?? []) items.push({ kind: "row", row, groupKey: group.key });
    // Not loaded yet, or more to come: the line that asks for the next page when it nears the view.
    if (!rows || rows.hasMore) items.push({ kind: "more", groupKey: group.key });
  }
  return items;
}

/** The groups whose "more" line lies in lines [start, end): they should load their next page. */
export function groupsWanting<T>(
  items: readonly TableItem<T>[],
  start: number,
  end: number,
): GroupKey[] {
  const wanting: GroupKey[] = [];
  for (let i = Math.max(0, start); i < Math.min(items.length, end); i++) {
    const item = items[i];
    if (item?.kind === "more") wanting.push(item.groupKey);
  }
  return wanting;
}

import { useCallback, useEffect, useMemo, useRef, useState } from "react";
import { useClient } from "urql";
import { graphql } from "../graphql/graphql.ts";
import {
  flattenGroups,
  type Group,
  type GroupKey,
  type GroupRows,
  groupId,
  groupsWanting,
  type TableItem,
} from "./group-rows.ts";
import { fetchVmPage } from "./use-vm-pages.ts";
import { apiGroupBy, type GroupBy } from "./view-params.ts";
import type { TableQuery } from "./vm-filter.ts";
import type { VmRow } from "./vm-row.ts";

export const VM_GROUPS = graphql(`
  query VmGroups($by: VirtualMachineGroupBy!, $filter: VirtualMachineFilter) {
    virtualMachineGroups(by: $by, filter: $filter) { key count }
  }
`);

/** Lines past the view at which a group's next page is asked for. */
const LOAD_AHEAD = 40;

interface LoadedGroup extends GroupRows<VmRow> {
  endCursor: string | null;
}

/** The grouped table: its lines, and what the page does with them. */
export interface VmGroups {
  groups: Group[] | undefined;
  items: TableItem<VmRow>[];
  error: string | undefined;
  toggle: (key: GroupKey) => void;
  /** The lines in view changed: expanded groups near it load their next page. */
  showWindow: (start: number, end: number) => void;
}

/**
 * The groups of the list and the rows of each expanded group, each group paging its own rows
 * through the list query narrowed to it (docs/behaviour.md §9.45). A new filter or `reloadKey`
 * reloads the counts and the open groups' rows; a new grouping starts with every group collapsed.
 */
export function useVmGroups(
  query: TableQuery,
  group: GroupBy | undefined,
  reloadKey: number,
): VmGroups {
  const client = useClient();
  const [groups, setGroups] = useState<Group[]>();
  const [error, setError] = useState<string>();
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(() => new Set());
  const [loaded, setLoaded] = useState<ReadonlyMap<string, LoadedGroup>>(() => new Map());
  const [window, setWindow] = useState({ start: 0, end: 0 });
  const loadedNow = useRef(loaded);
  loadedNow.current = loaded;
  const inFlight = useRef(new Set<string>());
  const generation = useRef(0);
  const key = JSON.stringify(query);

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new grouping is the reason to collapse
  useEffect(() => {
    setExpanded(new Set());
    setGroups(undefined);
  }, [group]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: reloadKey is a reason to start over
  useEffect(() => {
    const current = ++generation.current;
    inFlight.current.clear();
    setLoaded(new Map());
    if (!group) {
      setGroups(undefined);
      return;
    }
    const filter = (JSON.parse(key) as TableQuery).filter;
    void client
      .query(VM_GROUPS, { by: apiGroupBy(group), filter }, { requestPolicy: "network-only" })
      .toPromise()
      .then((result) => {
        if (current !== generation.current) return;
        if (!result.data) {
          setError(result.error?.message ?? "");
          return;
        }
        setError(undefined);
        setGroups(result.data.virtualMachineGroups);
      });
  }, [client, key, group, reloadKey]);

  const loadPage = useCallback(
    async (groupKey: GroupKey) => {
      if (!group) return;
      const id = groupId(groupKey);
      const before = loadedNow.current.get(id);
      if (inFlight.current.has(id) || (before && !before.hasMore)) return;
      inFlight.current.add(id);
      const current = generation.current;
      const parsed = JSON.parse(key) as TableQuery;
      const narrowed: TableQuery = {
        ...parsed,
        filter: { ...parsed.filter, group: { by: apiGroupBy(group), key: groupKey } },
      };
      const { page, error } = await fetchVmPage(client, narrowed, before?.endCursor ?? null);
      if (current !== generation.current) return;
      inFlight.current.delete(id);
      if (!page) {
        setError(error);
        return;
      }
      setLoaded((previous) => {
        const next = new Map(previous);
        next.set(id, {
          rows: [...(previous.get(id)?.rows ?? []), ...page.edges.map((edge) => edge.node)],
          hasMore: page.pageInfo.hasNextPage,
          endCursor: page.pageInfo.endCursor,
        });
        return next;
      });
    },
    [client, key, group],
  );

  const items = useMemo(
    () => flattenGroups(groups ?? [], expanded, loaded),
    [groups, expanded, loaded],
  );

  useEffect(() => {
    for (const wanting of groupsWanting(items, window.start, window.end + LOAD_AHEAD))
      void loadPage(wanting);
  }, [items, window, loadPage]);

  const toggle = useCallback((groupKey: GroupKey) => {
    const id = groupId(groupKey);
    setExpanded((previous) => {
      const next = new Set(previous);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  }, []);

  const showWindow = useCallback(
    (start: number, end: number) =>
      setWindow((previous) =>
        previous.start === start && previous.end === end ? previous : { start, end },
      ),
    [],
  );

  return { groups: group ? groups : undefined, items, error, toggle, showWindow };
}

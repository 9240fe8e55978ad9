// One page of the unified list as a test asks for it: ids, names, the total and the page info.
import type { TestApp } from "./test-app.ts";

/** The list's query with every paging argument; unset variables mean the API's defaults. */
export const VM_LIST_PAGE = `query($filter: VirtualMachineFilter, $orderBy: [VirtualMachineOrder!], $first: Int, $after: String) {
  virtualMachines(filter: $filter, orderBy: $orderBy, first: $first, after: $after) {
    totalCount pageInfo { hasNextPage endCursor } edges { node { id name } } } }`;

/** What {@link VM_LIST_PAGE} answers. */
export interface VmListPage {
  totalCount: number;
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
  edges: { node: { id: string; name: string } }[];
}

/** One page of the list as the session `cookie` sees it; errors fail the test. */
export async function listVmPage(
  app: TestApp,
  cookie: string,
  variables: Record<string, unknown>,
): Promise<VmListPage> {
  const res = await app.graphql<{ virtualMachines: VmListPage }>(VM_LIST_PAGE, variables, {
    cookie,
  });
  if (res.body.errors) throw new Error(JSON.stringify(res.body.errors));
  return res.body.data?.virtualMachines as VmListPage;
}

/** Filters of `GET /api/vcenter/vm` (VM.FilterSpec); every given list narrows the result. */
export interface VmFilter {
  hosts?: readonly string[];
  clusters?: readonly string[];
  datacenters?: readonly string[];
  folders?: readonly string[];
  powerStates?: readonly string[];
}

const PARAMS: [keyof VmFilter, string][] = [
  ["hosts", "hosts"],
  ["clusters", "clusters"],
  ["datacenters", "datacenters"],
  ["folders", "folders"],
  ["powerStates", "power_states"],
];

/**
 * The query string of a filter, each value as its own parameter (`hosts=host-1&hosts=host-2`),
 * which is how the `/api` endpoints take sets. Empty string when there is no filter.
 */
export function filterQuery(filter: VmFilter = {}): string {
  const params = new URLSearchParams();
  for (const [field, name] of PARAMS) {
    for (const value of filter[field] ?? []) params.append(name, value);
  }
  const text = params.toString();
  return text === "" ? "" : `?${text}`;
}

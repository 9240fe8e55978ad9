// GET /inventory/ansible: Ansible's dynamic-inventory JSON (`_meta.hostvars`, `all`,
// `ungrouped`, and a group per source, connection, cluster, node, org, VDC, state, tag and OS
// family), written as the guests are read (docs/behaviour.md §14.10–§14.14).
import type { InventoryHost } from "./inventory-hosts.ts";
import type { Utf8Chunks } from "./utf8-chunks.ts";

/** A group name Ansible accepts: letters, digits and underscores, lower case. */
export function groupName(prefix: string, value: string): string {
  return `${prefix}_${value.toLowerCase().replace(/[^a-z0-9_]/g, "_")}`;
}

/** {@link osFamily} remembered for one export: OS names repeat across thousands of guests. */
function memoized<T>(compute: (key: string) => T): (key: string) => T {
  const known = new Map<string, T>();
  return (key) => {
    let value = known.get(key);
    if (value === undefined && !known.has(key)) {
      value = compute(key);
      known.set(key, value);
    }
    return value as T;
  };
}

/** The OS family of a guest OS as the sources spell it (`l26`, `win11`, `Ubuntu Linux (64-bit)`). */
export function osFamily(guestOs: string | null): string | undefined {
  if (!guestOs) return undefined;
  if (/windows|^win|microsoft/i.test(guestOs)) return "windows";
  if (/bsd/i.test(guestOs)) return "bsd";
  if (/solaris|illumos|^solaris/i.test(guestOs)) return "solaris";
  if (
    /linux|^l2[46]$|ubuntu|debian|centos|rhel|red ?hat|suse|sles|fedora|alpine|rocky|alma|oracle|photon|coreos|arch|gentoo|amazon/i.test(
      guestOs,
    )
  )
    return "linux";
  return "other";
}

type FamilyOf = (guestOs: string | null) => string | undefined;

const PREFIXES = ["source", "connection", "state", "cluster", "node", "org", "vdc", "tag", "os"];
type Prefix = (typeof PREFIXES)[number];

/** The groups a host belongs to, as (prefix, value) pairs, each group named by {@link groupName}. */
export function forEachGroup(
  host: InventoryHost,
  familyOf: FamilyOf,
  visit: (prefix: Prefix, value: string) => void,
): void {
  const { row } = host;
  visit("source", row.source);
  visit("connection", host.connectionName);
  visit("state", row.state);
  if (row.clusterName) visit("cluster", row.clusterName);
  if (row.nodeName) visit("node", row.nodeName);
  if (row.orgName) visit("org", row.orgName);
  if (row.vdcName) visit("vdc", row.vdcName);
  for (const tag of row.tags) visit("tag", tag);
  const family = familyOf(row.guestOs);
  if (family) visit("os", family);
}

/**
 * The member lists of one export's groups. Values that name the same group (tags `a b` and `a_b`)
 * share its list, and a host joins a list once. Each value's list is found without building its
 * group name again: nodes, tags and states repeat across thousands of guests.
 */
export class GroupMembers {
  private readonly byName = new Map<string, string[]>();
  private readonly byValue = new Map<Prefix, Map<string, string[]>>(
    PREFIXES.map((prefix) => [prefix, new Map()]),
  );

  add(prefix: Prefix, value: string, hostName: string): void {
    const lists = this.byValue.get(prefix) as Map<string, string[]>;
    let list = lists.get(value);
    if (!list) {
      const name = groupName(prefix, value);
      list = this.byName.get(name) ?? [];
      this.byName.set(name, list);
      lists.set(value, list);
    }
    // Hosts arrive one at a time: one already in this list is its last member.
    if (list.at(-1) !== hostName) list.push(hostName);
  }

  /** Group names, sorted, with their members in the order they were added. */
  sorted(): [string, string[]][] {
    return [...this.byName].sort(([x], [y]) => (x < y ? -1 : x > y ? 1 : 0));
  }
}

const json = JSON.stringify;
const jsonList = (values: readonly string[]) =>
  values.length === 0 ? "[]" : `[${values.map((value) => json(value)).join(",")}]`;
const jsonOrNull = (value: string | number | null) => (value === null ? "null" : json(value));

/**
 * A host's variables as JSON: where it runs, what it is, and how to reach it. Written out field
 * by field: an object per guest only to stringify it was a fifth of the export's garbage.
 */
export function hostVarsJson(host: InventoryHost, familyOf: FamilyOf = osFamily): string {
  const { row } = host;
  return `{${host.primaryAddress ? `"ansible_host":${json(host.primaryAddress)},` : ""}\
"hyperlens_id":${json(host.globalId)},\
"hyperlens_name":${json(row.name)},\
"hyperlens_source":${json(row.source)},\
"hyperlens_connection":${json(host.connectionName)},\
"hyperlens_kind":${json(row.kind)},\
"hyperlens_state":${json(row.state)},\
"hyperlens_node":${jsonOrNull(row.nodeName)},\
"hyperlens_cluster":${jsonOrNull(row.clusterName)},\
"hyperlens_datacenter":${jsonOrNull(row.datacenterName)},\
"hyperlens_host":${jsonOrNull(row.hostName)},\
"hyperlens_org":${jsonOrNull(row.orgName)},\
"hyperlens_vdc":${jsonOrNull(row.vdcName)},\
"hyperlens_vapp":${jsonOrNull(row.vappName)},\
"hyperlens_tags":${jsonList(row.tags)},\
"hyperlens_os":${jsonOrNull(row.guestOs)},\
"hyperlens_os_family":${jsonOrNull(familyOf(row.guestOs) ?? null)},\
"hyperlens_cpus":${jsonOrNull(row.cpuCount)},\
"hyperlens_memory_bytes":${jsonOrNull(row.memoryBytes)},\
"hyperlens_ips":${jsonList(host.addresses)},\
"hyperlens_macs":${jsonList(host.macs)}}`;
}

/**
 * Writes the inventory as pages of hosts arrive: the host variables first, under `_meta`, then
 * the groups, whose member lists are all that is kept until the end.
 */
export async function writeAnsibleInventory(
  pages: AsyncIterable<InventoryHost[]>,
  out: Utf8Chunks,
): Promise<void> {
  const members = new GroupMembers();
  const familyByOs = memoized(osFamily);
  const familyOf: FamilyOf = (guestOs) => (guestOs ? familyByOs(guestOs) : undefined);
  out.add('{"_meta":{"hostvars":{');
  let first = true;
  for await (const page of pages) {
    for (const host of page) {
      out.add(`${first ? "" : ","}${json(host.hostName)}:${hostVarsJson(host, familyOf)}`);
      first = false;
      forEachGroup(host, familyOf, (prefix, value) => members.add(prefix, value, host.hostName));
    }
    await out.flush();
  }
  const groups = members.sorted();
  const children = ["ungrouped", ...groups.map(([name]) => name)];
  out.add(`}},"all":${json({ children })},"ungrouped":{"hosts":[]}`);
  for (const [name, hosts] of groups) {
    out.add(`,${json(name)}:{"hosts":[`);
    let separator = "";
    for (const host of hosts) {
      out.add(`${separator}${json(host)}`);
      separator = ",";
    }
    out.add("]}");
    await out.flush();
  }
  out.add("}");
  await out.flush(true);
}

// GET /inventory/ansible: Ansible's dynamic-inventory JSON (`_meta.hostvars`, `all`,
// `ungrouped`, and a group per source, connection, cluster, node, org, VDC, state, tag and OS
// family), written as the guests are read (docs/behaviour.md §14.10–§14.14).
import type { InventoryHost } from "./inventory-hosts.ts";

/** A group name Ansible accepts: letters, digits and underscores, lower case. */
export function groupName(prefix: string, value: string): string {
  return `${prefix}_${value.toLowerCase().replace(/[^a-z0-9_]/g, "_")}`;
}

/**
 * {@link groupName} and {@link osFamily} remembered for one export: nodes, tags, states and OS
 * names repeat across thousands of guests.
 */
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

type Namer = (prefix: string, value: string) => string;
type FamilyOf = (guestOs: string | null) => string | undefined;

/** The groups a host belongs to. */
export function groupsOf(
  host: InventoryHost,
  name: Namer = groupName,
  familyOf: FamilyOf = osFamily,
): string[] {
  const { row } = host;
  const groups = [
    name("source", row.source),
    name("connection", host.connectionName),
    name("state", row.state),
  ];
  const located: [string, string | null][] = [
    ["cluster", row.clusterName],
    ["node", row.nodeName],
    ["org", row.orgName],
    ["vdc", row.vdcName],
  ];
  for (const [prefix, value] of located) if (value) groups.push(name(prefix, value));
  for (const tag of row.tags) groups.push(name("tag", tag));
  const family = familyOf(row.guestOs);
  if (family) groups.push(name("os", family));
  return [...new Set(groups)];
}

/** A host's variables: where it runs, what it is, and how to reach it. */
export function hostVars(
  host: InventoryHost,
  familyOf: FamilyOf = osFamily,
): Record<string, unknown> {
  const { row } = host;
  return {
    ...(host.primaryAddress ? { ansible_host: host.primaryAddress } : {}),
    hyperlens_id: host.globalId,
    hyperlens_name: row.name,
    hyperlens_source: row.source,
    hyperlens_connection: host.connectionName,
    hyperlens_kind: row.kind,
    hyperlens_state: row.state,
    hyperlens_node: row.nodeName,
    hyperlens_cluster: row.clusterName,
    hyperlens_datacenter: row.datacenterName,
    hyperlens_host: row.hostName,
    hyperlens_org: row.orgName,
    hyperlens_vdc: row.vdcName,
    hyperlens_vapp: row.vappName,
    hyperlens_tags: row.tags,
    hyperlens_os: row.guestOs,
    hyperlens_os_family: familyOf(row.guestOs) ?? null,
    hyperlens_cpus: row.cpuCount,
    hyperlens_memory_bytes: row.memoryBytes,
    hyperlens_ips: host.addresses,
    hyperlens_macs: host.macs,
  };
}

/**
 * Writes the inventory as pages of hosts arrive: the host variables first, under `_meta`, then
 * the groups, whose member lists are all that is kept until the end.
 */
export async function writeAnsibleInventory(
  pages: AsyncIterable<InventoryHost[]>,
  write: (chunk: string) => Promise<void>,
): Promise<void> {
  const members = new Map<string, string[]>();
  const named = memoized((key) => {
    const at = key.indexOf(":");
    return groupName(key.slice(0, at), key.slice(at + 1));
  });
  const name: Namer = (prefix, value) => named(`${prefix}:${value}`);
  const familyByOs = memoized(osFamily);
  const familyOf: FamilyOf = (guestOs) => (guestOs ? familyByOs(guestOs) : undefined);
  await write('{"_meta":{"hostvars":{');
  let first = true;
  for await (const page of pages) {
    let chunk = "";
    for (const host of page) {
      chunk += `${first ? "" : ","}${JSON.stringify(host.hostName)}:${JSON.stringify(hostVars(host, familyOf))}`;
      first = false;
      for (const group of groupsOf(host, name, familyOf)) {
        const list = members.get(group);
        if (list) list.push(host.hostName);
        else members.set(group, [host.hostName]);
      }
    }
    if (chunk) await write(chunk);
  }
  const names = [...members.keys()].sort();
  await write(
    `}},"all":${JSON.stringify({ children: ["ungrouped", ...names] })},"ungrouped":{"hosts":[]}`,
  );
  for (const name of names) {
    await write(`,${JSON.stringify(name)}:${JSON.stringify({ hosts: members.get(name) })}`);
  }
  await write("}");
}

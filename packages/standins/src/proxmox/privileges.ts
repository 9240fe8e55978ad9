import type { ProxmoxRole } from "./auth.ts";
import type { VersionTraits } from "./versions.ts";

const AUDIT = [
  "Datastore.Audit",
  "Mapping.Audit",
  "Pool.Audit",
  "SDN.Audit",
  "Sys.Audit",
  "VM.Audit",
];
const ADMIN_COMMON = [
  ...AUDIT,
  "Datastore.Allocate",
  "Datastore.AllocateSpace",
  "Permissions.Modify",
  "Sys.Console",
  "Sys.Modify",
  "Sys.PowerMgmt",
  "Sys.Syslog",
  "User.Modify",
  "VM.Allocate",
  "VM.Backup",
  "VM.Clone",
  "VM.Config.Disk",
  "VM.Config.Network",
  "VM.Console",
  "VM.Migrate",
  "VM.PowerMgmt",
  "VM.Snapshot",
];

/** Privileges the role holds on `/` (propagated) in this release. */
export function privilegesOf(role: ProxmoxRole, traits: VersionTraits): string[] {
  // PVE 9 dropped VM.Monitor; VM.GuestAgent.Audit joined the audit group, so PVEAuditor got it.
  const agent = traits.auditorMayReadAgent ? ["VM.GuestAgent.Audit"] : [];
  const adminAgent = traits.auditorMayReadAgent
    ? ["VM.GuestAgent.Audit", "VM.GuestAgent.Unrestricted"]
    : ["VM.Monitor"];
  const privileges = role === "auditor" ? [...AUDIT, ...agent] : [...ADMIN_COMMON, ...adminAgent];
  // Resource mappings (and Mapping.*) arrived with PVE 8.0.
  const known =
    traits.release === "7.4" ? privileges.filter((p) => !p.startsWith("Mapping.")) : privileges;
  return known.sort();
}

/** Body of GET /access/permissions: path → privilege → 1 (propagate). */
export function permissionsMap(
  role: ProxmoxRole,
  traits: VersionTraits,
): Record<string, Record<string, number>> {
  const privs = Object.fromEntries(privilegesOf(role, traits).map((priv) => [priv, 1]));
  return { "/": privs, "/nodes": privs, "/storage": privs, "/vms": privs };
}

/** The `cap` object of a ticket login, grouped as pve-access-control groups it. */
export function ticketCapabilities(
  role: ProxmoxRole,
  traits: VersionTraits,
): Record<string, Record<string, number>> {
  const privs = privilegesOf(role, traits);
  const group = (prefixes: string[]) =>
    Object.fromEntries(
      privs.filter((p) => prefixes.some((prefix) => p.startsWith(prefix))).map((p) => [p, 1]),
    );
  return {
    access: group(["User.", "Group.", "Permissions."]),
    dc: group(["Sys.Audit", "SDN.", "Mapping."]),
    mapping: group(["Mapping."]),
    nodes: group(["Sys.", "Permissions."]),
    sdn: group(["SDN."]),
    storage: group(["Datastore.", "Permissions."]),
    vms: group(["VM.", "Permissions."]),
  };
}

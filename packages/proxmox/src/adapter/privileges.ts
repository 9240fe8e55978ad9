// Connection health (docs/behaviour.md §10): warn when the credentials can do more than read. Hyperlens never
// writes, but a leaked token with write rights would be a much bigger problem.
import type { ProxmoxPermissions } from "../parse/permissions.ts";
import type { ProxmoxVersion } from "../parse/version.ts";

// Privileges that only read. VM.Monitor is read-ish on 8.x (needed for the guest agent there).
const READ_ONLY = /\.Audit$|^VM\.Monitor$/;

/** A warning naming the privileges beyond read-only, or null when there are none. */
export function privilegeWarning(permissions: ProxmoxPermissions): string | null {
  const extra = new Set<string>();
  for (const privileges of Object.values(permissions)) {
    for (const [privilege, granted] of Object.entries(privileges)) {
      if (granted && !READ_ONLY.test(privilege)) extra.add(privilege);
    }
  }
  if (extra.size === 0) return null;
  const list = [...extra].sort();
  const shown =
    list.slice(0, 8).join(", ") + (list.length > 8 ? `, and ${list.length - 8} more` : "");
  return `These credentials can do more than read (${shown}). Hyperlens needs only PVEAuditor; see docs/permissions.md.`;
}

/**
 * The privileges this Proxmox version accepts for guest-agent reads, the one to ask for first:
 * VE 9 split them off VM.Monitor into VM.GuestAgent.* (fixtures/proxmox/schema, docs/behaviour.md
 * §3.6). An unknown version may be either.
 */
export function agentPrivileges(version: ProxmoxVersion | null): string[] {
  if (version?.major == null) return ["VM.GuestAgent.Audit", "VM.Monitor"];
  return version.major >= 9
    ? ["VM.GuestAgent.Audit", "VM.GuestAgent.Unrestricted"]
    : ["VM.Monitor"];
}

/** The privilege a "permission missing" reason names for agent reads on this version. */
export function agentPrivilege(version: ProxmoxVersion | null): string {
  const accepted = agentPrivileges(version);
  return version?.major == null ? accepted.join(" / ") : (accepted[0] ?? "VM.Monitor");
}

/**
 * A warning when the credentials hold no privilege this version checks for guest-agent reads
 * (docs/behaviour.md §10.11): every VM's addresses, hostname and OS would be
 * missing with "permission missing". Null when one is granted on some path.
 */
export function agentPrivilegeWarning(
  permissions: ProxmoxPermissions,
  version: ProxmoxVersion | null,
): string | null {
  const accepted = agentPrivileges(version);
  const granted = Object.values(permissions).some((privileges) =>
    accepted.some((privilege) => privileges[privilege] === true),
  );
  if (granted) return null;
  const release =
    version?.major == null ? "this Proxmox VE version" : `Proxmox VE ${version.major}`;
  return `These credentials lack ${agentPrivilege(version)}, which ${release} checks for guest-agent reads: VM addresses, hostnames and OS versions will be missing. See docs/permissions.md.`;
}

/** What a connection Test warns about its credentials: too much, and too little for the agent. */
export function connectionPrivilegeWarning(
  permissions: ProxmoxPermissions,
  version: ProxmoxVersion | null,
): string | null {
  const warnings = [privilegeWarning(permissions), agentPrivilegeWarning(permissions, version)];
  return warnings.filter((warning) => warning !== null).join(" ") || null;
}

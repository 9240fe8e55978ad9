// Connection health (docs/behaviour.md §10): warn when the credentials can do more than read. Hyperlens never
// writes, but a leaked token with write rights would be a much bigger problem.
import type { ProxmoxPermissions } from "../parse/permissions.ts";

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

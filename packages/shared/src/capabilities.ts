/** What a user or API token may do (SPEC §7). The three connection kinds are sensitive. */
export const CAPABILITIES = [
  "VIEW_INVENTORY",
  "MANAGE_PROXMOX",
  "MANAGE_VCD",
  "MANAGE_VCENTER",
  "MANAGE_USERS",
] as const;

/** One capability name. */
export type Capability = (typeof CAPABILITIES)[number];

/** True when the string names a capability. */
export function isCapability(value: string): value is Capability {
  return (CAPABILITIES as readonly string[]).includes(value);
}

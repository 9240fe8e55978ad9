/**
 * What a user or API token may do (docs/behaviour.md §7). The three connection kinds are sensitive. RUN_SYNC
 * (start a manual sync, which reads the whole hypervisor) is separate from VIEW_INVENTORY so it
 * can be taken away from a viewer or a token; it is granted with view by default.
 */
export const CAPABILITIES = [
  "VIEW_INVENTORY",
  "RUN_SYNC",
  "MANAGE_PROXMOX",
  "MANAGE_VCD",
  "MANAGE_VCENTER",
  "MANAGE_USERS",
] as const;

/** One capability name. */
export type Capability = (typeof CAPABILITIES)[number];

/** What a new user or token gets unless the creator picks otherwise: view, and starting syncs. */
export const DEFAULT_CAPABILITIES: readonly Capability[] = ["VIEW_INVENTORY", "RUN_SYNC"];

/** Whether these capabilities may start a manual sync: RUN_SYNC, with view (a run is inventory). */
export function canRunSync(capabilities: readonly Capability[]): boolean {
  return capabilities.includes("RUN_SYNC") && capabilities.includes("VIEW_INVENTORY");
}

/** True when the string names a capability. */
export function isCapability(value: string): value is Capability {
  return (CAPABILITIES as readonly string[]).includes(value);
}

/** The kinds of hypervisor connection. */
export const CONNECTION_KINDS = ["PROXMOX", "VCD", "VCENTER"] as const;

/** One kind of connection. */
export type ConnectionKind = (typeof CONNECTION_KINDS)[number];

/** The capability that manages connections of a kind (docs/behaviour.md §7: the three are sensitive). */
export const MANAGE_CAPABILITY: Record<ConnectionKind, Capability> = {
  PROXMOX: "MANAGE_PROXMOX",
  VCD: "MANAGE_VCD",
  VCENTER: "MANAGE_VCENTER",
};

/** What a secret field shows once a secret is stored; sent back unchanged, it keeps the secret. */
export const SECRET_PLACEHOLDER = "••••••••";

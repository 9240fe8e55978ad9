/**
 * @hyperlens/proxmox — typed, read-only Proxmox VE client on hyper-http (docs/behaviour.md §3), plus the pure
 * parsers it uses, exported so the adapter and tests can read recorded answers directly.
 */

export { normalizeMac } from "@hyperlens/shared";
export * from "./adapter/index.ts";
export { PROXMOX_ALLOWED_WRITES } from "./allowed-writes.ts";
export {
  type AgentInterfacesOutcome,
  type AgentUnavailableReason,
  agentUnavailable,
  createProxmoxClient,
  DEFAULT_REQUESTS_PER_NODE,
  type LxcInterfacesOutcome,
  type ProxmoxAuth,
  type ProxmoxClient,
  type ProxmoxClientOptions,
  type ProxmoxHttpOptions,
  proxmoxNodeOf,
} from "./client.ts";
export { isAgentEnabled } from "./config/agent-flag.ts";
export { type GuestDisk, parseLxcVolume, parseQemuDisk } from "./config/disks.ts";
export { type LxcIpv4, type LxcIpv6, type LxcNic, parseLxcNic } from "./config/lxc-nic.ts";
export { type PropertyString, parsePropertyString } from "./config/property-string.ts";
export { parseQemuNic, type QemuNic } from "./config/qemu-nic.ts";
export { parseSizeToBytes } from "./config/size.ts";
export { parseTags } from "./config/tags.ts";
export {
  type AgentNetworkResult,
  type GuestAddress,
  type GuestInterface,
  parseAgentNetwork,
} from "./parse/agent-interfaces.ts";
export { type ProxmoxClusterGuest, parseClusterGuests } from "./parse/cluster-resources.ts";
export { type ProxmoxClusterStatus, parseClusterStatus } from "./parse/cluster-status.ts";
export {
  type LxcConfig,
  parseLxcConfig,
  parseQemuConfig,
  type QemuConfig,
} from "./parse/guest-config.ts";
export { type ProxmoxGuestSummary, parseGuestList } from "./parse/guest-list.ts";
export { parseLxcInterfaces } from "./parse/lxc-interfaces.ts";
export { type ProxmoxNode, parseNodes } from "./parse/nodes.ts";
export { type ProxmoxPermissions, parsePermissions } from "./parse/permissions.ts";
export { type ProxmoxTicket, parseTicket } from "./parse/ticket.ts";
export { type ProxmoxVersion, parseVersion } from "./parse/version.ts";
export { TICKET_RENEW_AFTER_MS } from "./ticket-session.ts";
export { tokenAuthorization } from "./token-auth.ts";

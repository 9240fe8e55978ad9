export { PROXMOX_FIELD_SOURCES } from "./field-sources.ts";
export { listProxmoxGuests, readProxmoxGuests } from "./list-guests.ts";
export { agentReportedAddresses, type GuestPlace, mapLxcGuest, mapQemuGuest } from "./map-guest.ts";
export {
  agentPrivilege,
  agentPrivilegeWarning,
  connectionPrivilegeWarning,
  privilegeWarning,
} from "./privileges.ts";
export {
  listKey,
  type ReadOptions,
  type ReadProgress,
  readProxmoxInventory,
} from "./read-inventory.ts";

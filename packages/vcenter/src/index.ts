/**
 * @hyperlens/vcenter — typed, read-only vSphere Automation REST client for vCenter 7 and 8 on
 * hyper-http (docs/behaviour.md §5), the adapter to the neutral shape, and the pure parsers, exported so tests
 * and tools can read recorded answers directly.
 */

export { normalizeMac } from "@hyperlens/shared";
export * from "./adapter/index.ts";
export { VCENTER_ALLOWED_WRITES } from "./allowed-writes.ts";
export {
  createVcenterClient,
  type GuestInterfacesOutcome,
  type HostFilter,
  type VcenterClient,
  type VcenterClientOptions,
  type VcenterHttpOptions,
} from "./client.ts";
export {
  readVmListing,
  VM_LIST_CAP,
  type VmListing,
  type VmListingDeps,
} from "./list-vms.ts";
export { parseGuestIdentity, type VcenterGuestIdentity } from "./parse/guest-identity.ts";
export {
  parseGuestInterfaces,
  type VcenterGuestAddress,
  type VcenterGuestInterface,
} from "./parse/guest-interfaces.ts";
export * from "./parse/inventory-lists.ts";
export {
  parseSessionInfo,
  parseSessionToken,
  type VcenterSessionInfo,
} from "./parse/session.ts";
export {
  parseVmInfo,
  type VcenterDisk,
  type VcenterNic,
  type VcenterVmInfo,
} from "./parse/vm-info.ts";
export { parseVmList, type VcenterPowerState, type VcenterVmSummary } from "./parse/vm-list.ts";
export { type HostPlace, type Placement, type PlacementDeps, readPlacement } from "./placement.ts";
export { SESSION_HEADER, type VcenterCredentials } from "./session.ts";
export { filterQuery, type VmFilter } from "./vm-filter.ts";

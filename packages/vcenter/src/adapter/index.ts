export { VCENTER_FIELD_SOURCES } from "./field-sources.ts";
export { createVcenterLightPoll, type VcenterLightPoll } from "./light-poll.ts";
export {
  datastoreOf,
  mapVcenterVm,
  powerState,
  toolsReportedAddresses,
  type VcenterVmContext,
  type VcenterVmPlace,
} from "./map-vm.ts";
export {
  readVcenterInventory,
  VCENTER_VM_LIST_KEY,
  type VcenterReadOptions,
  type VcenterReadProgress,
} from "./read-inventory.ts";

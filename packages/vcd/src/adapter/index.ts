export { VCD_FIELD_SOURCES } from "./field-sources.ts";
export { createVcdLightPoll, type VcdLightPoll } from "./light-poll.ts";
export { mapEdgeGateway, mapEdgeGatewayRecord } from "./map-edge-gateway.ts";
export {
  mapVcdVm,
  nicKey,
  powerState,
  type VcdVmContext,
} from "./map-vm.ts";
export {
  readVcdInventory,
  VCD_VM_LIST_KEY,
  type VcdReadOptions,
  type VcdReadProgress,
} from "./read-inventory.ts";
export { readVcenterHosts } from "./vcenter-hosts.ts";

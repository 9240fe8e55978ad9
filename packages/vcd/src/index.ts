/**
 * @hyperlens/vcd — typed, read-only VMware Cloud Director client on hyper-http (docs/behaviour.md §4), the
 * adapter to the neutral shape, and the pure parsers, exported so tests and tools can read
 * recorded answers directly.
 */

export * from "./adapter/index.ts";
export { VCD_ALLOWED_WRITES } from "./allowed-writes.ts";
export { DEFAULT_API_VERSION, pickApiVersion, SUPPORTED_API_MAJORS } from "./api-version.ts";
export {
  createVcdClient,
  EDGE_GATEWAY_PAGE_SIZE,
  type VcdClient,
  type VcdClientOptions,
  type VcdHttpOptions,
  VIRTUAL_CENTER_PAGE_SIZE,
  VM_QUERY_PAGE_SIZE,
} from "./client.ts";
export { hrefToApiPath, lastUuid, vmUrnFromHref } from "./href.ts";
export {
  type CloudApiListing,
  type CloudApiListKind,
  type CloudApiPageRead,
  listCloudApiPages,
} from "./list-cloudapi-pages.ts";
export {
  type EdgeGatewayListing,
  type EdgeGatewayRecordListing,
  listEdgeGatewayPages,
  listEdgeGatewayRecordPages,
} from "./list-edge-gateways.ts";
export { listVmPages, type VmListing } from "./list-vms.ts";
export { type LoginName, parseLoginName } from "./login-name.ts";
export { type CloudApiPaging, cloudApiPageSchema } from "./parse/cloudapi-page.ts";
export { parseDisks, type VcdDisk } from "./parse/disks.ts";
export {
  type EdgeGatewayRecordPage,
  parseEdgeGatewayRecords,
  type VcdEdgeGatewayRecord,
} from "./parse/edge-gateway-records.ts";
export {
  type EdgeGatewayPage,
  type EdgeOwnerType,
  ownerTypeOf,
  parseEdgeGatewayPage,
  type VcdEdgeGateway,
  type VcdEdgeUplink,
} from "./parse/edge-gateways.ts";
export { hasNextPageLink } from "./parse/link-header.ts";
export {
  parseNetworkConnectionSection,
  type VcdNetworkConnection,
  type VcdNetworkConnectionSection,
} from "./parse/network-connections.ts";
export { parseSession, type VcdSessionInfo } from "./parse/session.ts";
export { parseSupportedVersions, type VcdApiVersion } from "./parse/versions.ts";
export {
  parseVirtualCenterPage,
  type VcdVirtualCenter,
  type VirtualCenterPage,
} from "./parse/virtual-centers.ts";
export { parseVmQueryPage, type VcdVmRecord, type VmQueryPage } from "./parse/vm-records.ts";
export type { VcdCredentials } from "./session.ts";

/**
 * Stand-in hypervisor servers: real HTTPS servers with a private CA serving a mutable inventory
 * model, for the demo mode. Proxmox VE, Cloud Director and vCenter, all on the same `http/`
 * server and `tls.ts`. Tests and benchmarks import `@hyperlens/standins/testing` instead, which
 * adds fault switches, hostile replies, a request log and a worker limit (`src/testing/`).
 */
export type { StandinHandler, StandinReply, StandinRequest } from "./http/reply.ts";
export {
  type StandinExchange,
  type StandinInterceptor,
  type StandinServer,
  type StandinServerOptions,
  startStandinServer,
} from "./http/server.ts";
export type { Principal, ProxmoxRole, ProxmoxTokenSpec, ProxmoxUserSpec } from "./proxmox/auth.ts";
export { demoCluster } from "./proxmox/demo-cluster.ts";
export { type GenerateClusterOptions, generateCluster } from "./proxmox/generator.ts";
export {
  agentInterface,
  type LxcGuestSpec,
  type LxcNicSpec,
  linkLocalFor,
  loopbackInterface,
  lxcGuest,
  lxcNetLine,
  proxmoxNode,
  type QemuDiskSpec,
  type QemuGuestSpec,
  type QemuNicSpec,
  qemuDiskLine,
  qemuGuest,
  qemuNetLine,
} from "./proxmox/guest-builders.ts";
export { API_BASE } from "./proxmox/handler.ts";
export {
  type AgentBehaviour,
  type AgentInterface,
  type AgentIpAddress,
  type ClusterSpec,
  type ConfigValue,
  type Guest,
  type GuestStatus,
  type LxcGuest,
  type LxcInterface,
  ProxmoxCluster,
  type ProxmoxNode,
  type QemuGuest,
} from "./proxmox/model.ts";
export {
  createProxmoxStandin,
  DEFAULT_TOKEN,
  DEFAULT_USER,
  type ProxmoxStandin,
  type ProxmoxStandinOptions,
  TICKET_LIFETIME_MS,
} from "./proxmox/server.ts";
export { type PveVersion, type VersionTraits, versionTraits } from "./proxmox/versions.ts";
export { SeededRandom } from "./random.ts";
export type { HttpsStandin, HttpsStandinOptions, SessionCounts } from "./standin.ts";
export { type StandinTls, standinTls } from "./tls.ts";
export {
  seededUuid,
  type VcdEdgeGatewaySpec,
  type VcdNicSpec,
  type VcdVmSpec,
  vcdEdgeGateway,
  vcdNic,
  vcdVm,
  vmwareMac,
} from "./vcd/builders.ts";
export { DEMO_IDS, demoDirector } from "./vcd/demo-director.ts";
export { type GenerateDirectorOptions, generateDirector } from "./vcd/generator.ts";
export { CLOUDAPI, type VcdSettings, type WriteAttempt } from "./vcd/handler.ts";
export {
  DirectorModel,
  type DirectorSpec,
  type EdgeGatewayOwner,
  type IpAllocationMode,
  type VcdDisk,
  type VcdEdgeGateway,
  type VcdNic,
  type VcdOrg,
  type VcdVapp,
  type VcdVcenter,
  type VcdVdc,
  type VcdVdcGroup,
  type VcdVm,
  type VcdVmStatus,
  type VmPlacement,
} from "./vcd/model.ts";
export { type NamespaceStyle, NS as VCD_NAMESPACES } from "./vcd/namespaces.ts";
export {
  createVcdStandin,
  DEFAULT_VCD_PASSWORD,
  DEFAULT_VCD_USERS,
  type VcdStandin,
  type VcdStandinOptions,
} from "./vcd/server.ts";
export { SYSTEM_ORG_ID, type VcdRole, type VcdSession, type VcdUserSpec } from "./vcd/sessions.ts";
export {
  type ApiVersionRange,
  DEFAULT_API_VERSIONS,
  KNOWN_API_VERSIONS,
} from "./vcd/versions.ts";
export * from "./vcenter/builders.ts";
export {
  DEFAULT_VCENTER_PASSWORD,
  DEFAULT_VCENTER_USERS,
  type VcenterCoreOptions,
} from "./vcenter/core.ts";
export { DEMO_VCENTER_IDS, demoVcenter } from "./vcenter/demo-vcenter.ts";
export { type GenerateVcenterOptions, generateVcenter } from "./vcenter/generator.ts";
export type { VcenterSettings, VcenterWriteAttempt } from "./vcenter/handler.ts";
export {
  type HostConnectionState,
  type VcenterCluster,
  type VcenterDatacenter,
  type VcenterFolder,
  type VcenterGuestAddress,
  type VcenterGuestInterface,
  type VcenterHost,
  VcenterModel,
  type VcenterPowerState,
  type VcenterSpec,
  type VcenterVm,
  type VcenterVmDisk,
  type VcenterVmNic,
} from "./vcenter/model.ts";
export {
  assertModelFitsRelease,
  DEFAULT_VCENTER_RELEASE,
  releaseConflict,
  VCENTER_RELEASES,
  type VcenterRelease,
  type VcenterReleaseTraits,
  vcenterReleaseTraits,
} from "./vcenter/releases.ts";
export {
  createVcenterStandin,
  type VcenterStandin,
  type VcenterStandinOptions,
} from "./vcenter/server.ts";
export type { VcenterSession, VcenterUserSpec } from "./vcenter/sessions.ts";

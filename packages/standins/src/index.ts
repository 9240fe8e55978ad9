/**
 * Stand-in hypervisor servers for tests, the demo mode and benchmarks: real HTTPS servers with
 * a private CA, a mutable inventory model, fault switches, latency, a worker limit and a
 * request log. Proxmox VE today; Cloud Director and vCenter reuse `http/` and `tls.ts`.
 */
export {
  type FaultAction,
  type FaultHandle,
  type FaultMatch,
  type FaultOptions,
  type FaultRule,
  FaultSwitches,
} from "./http/faults.ts";
export type { StandinHandler, StandinReply, StandinRequest } from "./http/reply.ts";
export { type RequestLogEntry, StandinStats } from "./http/request-log.ts";
export {
  type StandinServer,
  type StandinServerOptions,
  startStandinServer,
} from "./http/server.ts";
export { WorkerPool } from "./http/worker-pool.ts";
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
export { type StandinTls, standinTls } from "./tls.ts";

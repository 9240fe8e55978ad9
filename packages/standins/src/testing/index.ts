/**
 * `@hyperlens/standins/testing`, for tests, benchmarks and fixture scripts: everything of the main
 * entry, with the stand-ins instrumented — fault switches, hostile replies, the request log and its
 * counters, a worker limit, a latency a test changes while they run — and the socket-less vCenter.
 * Shipped code never imports it (apps/api/src/production-bundle.test.ts).
 */
export * from "../index.ts";
export {
  type FaultAction,
  type FaultHandle,
  type FaultMatch,
  type FaultOptions,
  type FaultRule,
  FaultSwitches,
  type FloodOptions,
  type RawReply,
} from "./faults.ts";
export { type HostileReply, hostileReplies, type ReplyFormat } from "./hostile-replies.ts";
export {
  createInProcessVcenter,
  type InProcessTransport,
  type InProcessVcenter,
  type InProcessVcenterOptions,
  type TransportRequest,
  type TransportResponse,
} from "./in-process-vcenter.ts";
export { type InstrumentOptions, instrumented, type StandinInstruments } from "./instruments.ts";
export { type NodeLoad, NodeWorkers, PVEPROXY_WORKERS, requestNode } from "./node-workers.ts";
export { pathsByRoute, type RequestLogEntry, StandinStats } from "./request-log.ts";
export {
  createProxmoxStandin,
  createVcdStandin,
  createVcenterStandin,
  type HttpsStandin,
  type ProxmoxStandin,
  type ProxmoxStandinOptions,
  type VcdStandin,
  type VcdStandinOptions,
  type VcenterStandin,
  type VcenterStandinOptions,
} from "./standins.ts";

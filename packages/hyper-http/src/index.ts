/**
 * @hyperlens/hyper-http — the one door to hypervisors (docs/behaviour.md §2). Every call to Proxmox, Cloud
 * Director or vCenter goes through {@link createHyperClient}.
 */
export {
  createHyperClient,
  globalSemaphore,
  type HyperClient,
  type HyperClientOptions,
  type HyperRequest,
  type HyperResponse,
  type ServerErrorAnswer,
  type TimeoutOptions,
} from "./client.ts";
export {
  type ConnectorHttp,
  type ConnectorHttpFill,
  type ConnectorHttpOptions,
  connectorHttp,
} from "./connector-http.ts";
export {
  type ErrorClass,
  HyperError,
  type HyperErrorDetails,
  isHyperError,
  type SourceName,
  textError,
  withHint,
} from "./errors.ts";
export { createGuardedAgent, type GuardedAgentOptions } from "./guarded-agent.ts";
export { checkHttpsUrl } from "./https-only.ts";
export {
  type AnswerIssue,
  type AnswerParsers,
  type AnswerSchema,
  answerParsers,
} from "./malformed-answer.ts";
export type { CallLabels, HyperLogger, HyperMetrics } from "./observability.ts";
export { redactPath } from "./redact.ts";
export type { RetryOptions } from "./retry-policy.ts";
export {
  createSessionScope,
  type ScopedSession,
  type SessionScope,
  type SessionScopeOptions,
} from "./session-scope.ts";
export {
  checkTargetUrl,
  findTargetRefusal,
  type RefusedTargetKind,
  refusedTargetKind,
  type TargetAddressPolicy,
} from "./target-address.ts";
export { checkCaPem } from "./tls-agent.ts";
export type { AllowedWrite, RequestPurpose } from "./write-guard.ts";

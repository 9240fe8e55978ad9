export {
  compiledAddressRules,
  type EffectiveAddressRules,
  GLOBAL_ADDRESS_RULES_KEY,
  readEffectiveAddressRules,
  readGlobalAddressRules,
  readSavedGlobalAddressRules,
  storedAddressRules,
} from "./address-rules-store.ts";
export { canonicalJson } from "./canonical-json.ts";
export {
  diffVm,
  type FieldChange,
  summarizeNeutralVm,
  type VmDiff,
  type VmSummary,
} from "./diff.ts";
export { syncFailedEvent } from "./feed-events.ts";
export { fingerprintOf, fingerprintVm } from "./fingerprint.ts";
export { decideGuard, type GuardDecision } from "./guard.ts";
export {
  appendInventoryEvents,
  INVENTORY_FEED_LOCK_KEY,
  type NewInventoryEvent,
} from "./inventory-events.ts";
export { type KeyedPlan, planKeyed, type StoredKeyed } from "./keyed-entities.ts";
export { type LightPollResult, type RunLightPollOptions, runLightPoll } from "./light-poll.ts";
export {
  type LightPollPlan,
  type ListedChange,
  planLightPoll,
  type StoredListedState,
} from "./light-poll-plan.ts";
export { normalizeVm } from "./normalize.ts";
export {
  type PlannedWrite,
  planReconcile,
  type ReconcilePlan,
  type StoredVmState,
  type SuppressedItem,
} from "./plan.ts";
export type { PreviewEntry, SyncPreview } from "./preview.ts";
export {
  applyRulesChange,
  type GuestAddressChange,
  previewRulesChange,
  type RulesChangeSummary,
  type RulesTarget,
} from "./rejudge-addresses.ts";
export { type RunSyncOptions, runSync, type SyncResult, ZERO_COUNTS } from "./run-sync.ts";

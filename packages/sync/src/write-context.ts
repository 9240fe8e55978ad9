import type { ConnectionKind } from "@hyperlens/shared";

/** What every write of one sync shares. */
export interface WriteContext {
  connectionId: string;
  source: ConnectionKind;
  syncRunId: string;
  now: Date;
  /** When the previous completed sync ran: the last time CONFIRMED rows were seen. */
  previousSuccessAt: Date | null;
  /** Told after a transaction that appended change-feed events has committed. */
  onFeedAdvanced?: () => void;
}

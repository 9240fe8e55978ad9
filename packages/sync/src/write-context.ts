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

/** A sync's or light poll's write context; a feed listener that throws never fails the writes. */
export function writeContextOf(
  run: { id: string; connectionId: string; startedAt: Date },
  source: ConnectionKind,
  previousSuccessAt: Date | null,
  onFeedAdvanced: (() => void) | undefined,
): WriteContext {
  return {
    connectionId: run.connectionId,
    source,
    syncRunId: run.id,
    now: run.startedAt,
    previousSuccessAt,
    onFeedAdvanced: () => {
      try {
        onFeedAdvanced?.();
      } catch {
        // The rows are committed either way.
      }
    },
  };
}

import { t } from "../i18n/i18n.ts";
import type { Connection } from "../settings/connection-fields.ts";
import { useSync } from "./sync-context.tsx";
import { isAnyRunning } from "./sync-progress.ts";

/** Syncs every active connection; absent for a viewer who may not start syncs (no RUN_SYNC). */
export function SyncAllButton(props: { connections: readonly Connection[] }) {
  const { syncAll, progress, canSync } = useSync();
  const isRunning = isAnyRunning(progress);
  const active = props.connections.filter((c) => c.isActive).map((c) => c.id);
  if (!canSync) return null;
  const isUnavailable = isRunning || active.length === 0;
  return (
    <button
      type="button"
      className="primary"
      // TRAP: docs/behaviour.md §9.49 — `disabled` would drop the keyboard's focus to <body> the moment the sync starts.
      aria-disabled={isUnavailable}
      onClick={() => {
        if (!isUnavailable) void syncAll(active);
      }}
    >
      {isRunning ? t("sync.running") : t("sync.button")}
    </button>
  );
}

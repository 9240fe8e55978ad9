// One live syncProgress subscription for the whole app, so the Sync button, Settings' "Sync now"
// and the Servers table all see the same progress and the table reloads when syncs end.
import {
  createContext,
  type ReactNode,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
} from "react";
import { useClient } from "urql";
import { graphql, type ResultOf } from "../graphql/graphql.ts";
import {
  applyProgress,
  isSettled,
  markRecent,
  markStarting,
  type ProgressState,
} from "./sync-progress.ts";

// A run handed back under the manual-sync cool-down says so; the page shows when the next is possible.
const StartedRun = graphql(`
  fragment StartedRun on SyncRun {
    id outcome connection { id name kind }
    manualSyncCooldown { secondsSinceLastRun nextManualSyncAt }
  }
`);

const SYNC_CONNECTION = graphql(
  `
  mutation SyncConnection($id: ID!) { syncConnection(id: $id) { ...StartedRun } }
`,
  [StartedRun],
);

const SYNC_ALL = graphql(
  `
  mutation SyncAll { syncAll { ...StartedRun } }
`,
  [StartedRun],
);

const SYNC_PROGRESS = graphql(`
  subscription SyncProgress($connectionId: ID) {
    syncProgress(connectionId: $connectionId) {
      at connectionId syncRunId type phase listKey listStatus count reason
      reasonText { code params message }
      counts { added changed removed restored unchanged seen rowsWritten }
      outcome message errorClass guardKnown guardPresent
      messageTexts { code params message }
    }
  }
`);

interface SyncApi {
  /** Whether the viewer may start syncs (RUN_SYNC with view); the Sync buttons show only then. */
  canSync: boolean;
  progress: ProgressState;
  /** Counts up each time every tracked sync has ended; pages reload on it. */
  settledCount: number;
  error: string | undefined;
  syncAll: (activeConnectionIds: readonly string[]) => Promise<void>;
  syncOne: (connectionId: string) => Promise<void>;
  dismiss: () => void;
}

const SyncContext = createContext<SyncApi | undefined>(undefined);

type SyncRunRef = ResultOf<typeof StartedRun>;

/** Marks the runs the server handed back under its cool-down; the others report progress. */
function withRecentRuns(state: ProgressState, runs: readonly SyncRunRef[]): ProgressState {
  return runs.reduce(
    (next, run) =>
      run.manualSyncCooldown
        ? markRecent(next, run.connection.id, {
            outcome: run.outcome,
            cooldown: run.manualSyncCooldown,
          })
        : next,
    state,
  );
}

/**
 * Provides live sync progress to the app; subscribes only when `isEnabled`. `canSync` says
 * whether the viewer may start syncs.
 */
export function SyncProvider(props: { isEnabled: boolean; canSync: boolean; children: ReactNode }) {
  const client = useClient();
  const [progress, setProgress] = useState<ProgressState>({});
  const [settledCount, setSettledCount] = useState(0);
  const [error, setError] = useState<string>();
  const wasSettled = useRef(true);

  useEffect(() => {
    if (!props.isEnabled) return;
    const subscription = client.subscription(SYNC_PROGRESS, {}).subscribe((result) => {
      const event = result.data?.syncProgress;
      if (event) setProgress((state) => applyProgress(state, event));
      if (result.error) setError(result.error.message);
    });
    return () => subscription.unsubscribe();
  }, [client, props.isEnabled]);

  useEffect(() => {
    const settled = isSettled(progress);
    if (settled && !wasSettled.current) setSettledCount((n) => n + 1);
    wasSettled.current = settled || Object.keys(progress).length === 0;
  }, [progress]);

  const syncAll = useCallback(
    async (ids: readonly string[]) => {
      setError(undefined);
      setProgress((state) => markStarting(state, ids));
      const result = await client.mutation(SYNC_ALL, {}).toPromise();
      if (result.error) {
        setError(result.error.message);
        setProgress({});
        return;
      }
      const runs = result.data?.syncAll ?? [];
      const started = new Set(runs.map((run) => run.connection.id));
      setProgress((state) =>
        withRecentRuns(
          Object.fromEntries(
            Object.entries(state).filter(([id, p]) => started.has(id) || p.status !== "starting"),
          ),
          runs,
        ),
      );
    },
    [client],
  );

  const syncOne = useCallback(
    async (id: string) => {
      setError(undefined);
      setProgress((state) => markStarting(state, [id]));
      const result = await client.mutation(SYNC_CONNECTION, { id }).toPromise();
      if (result.error) setError(result.error.message);
      const run = result.data?.syncConnection;
      if (run) setProgress((state) => withRecentRuns(state, [run]));
    },
    [client],
  );

  const { canSync } = props;
  const value = useMemo(
    () => ({
      canSync,
      progress,
      settledCount,
      error,
      syncAll,
      syncOne,
      dismiss: () => setProgress({}),
    }),
    [canSync, progress, settledCount, error, syncAll, syncOne],
  );
  return <SyncContext.Provider value={value}>{props.children}</SyncContext.Provider>;
}

/** The app's sync progress and actions. */
export function useSync(): SyncApi {
  const value = useContext(SyncContext);
  if (!value) throw new Error("useSync needs a SyncProvider");
  return value;
}

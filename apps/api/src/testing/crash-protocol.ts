// What the crash-safety test and its child process say to each other over IPC.
import type { SyncResult } from "@hyperlens/sync";
import type { CrashConnection } from "./crash-world.ts";
import type { DatabaseState } from "./inventory-state.ts";

/**
 * A request to the child. `killAtWrite`: SIGKILL itself at that inventory write of the sync;
 * `killAfterCommits`: at the first inventory write after that many commits (those have landed).
 */
export type CrashRequest =
  | { cmd: "connect"; connections: CrashConnection[] }
  | { cmd: "sync"; killAtWrite?: number; killAfterCommits?: number }
  | { cmd: "state" };

/** One connection's sync as the child reports it. */
export interface CrashSyncReport {
  name: string;
  outcome: SyncResult["outcome"];
  message: string;
}

/** What the child answers, per request kind. */
export interface CrashReplies {
  connect: null;
  sync: CrashSyncReport[];
  state: DatabaseState;
}

/** The child's messages: once ready, then one reply per request, in order. */
export type CrashMessage =
  | { kind: "ready" }
  | { kind: "reply"; value: unknown }
  | { kind: "error"; message: string };

const INVENTORY_WRITE =
  /^\s*(?:INSERT INTO|UPDATE|DELETE FROM)\s+(?:"?public"?\.)?"?(?:virtual_machines|nics|ip_addresses|disks|vm_events|hypervisor_nodes|edge_gateways)\b/i;

/**
 * Statements that write inventory, and every COMMIT: the points an aimed kill lands on (the read
 * phase and the run bookkeeping are hit by the kills aimed at stand-in requests). Counted the same
 * way in the child and in the reference run.
 */
export const isInventoryWrite = (sql: string) => INVENTORY_WRITE.test(sql) || isCommit(sql);

/** A COMMIT as the query listener reports it (Prisma's quoted form, or the raw driver's). */
export const isCommit = (sql: string) => sql.includes('"COMMIT"') || sql === "COMMIT";

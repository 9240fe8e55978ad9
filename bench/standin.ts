// The benchmark's side of a stand-in process (standin-process.ts): start it, read and reset its
// request counters, stop it.
import { type ChildProcess, fork } from "node:child_process";
import path from "node:path";
import { createInterface } from "node:readline";

/** Which stand-in, how big, how slow. */
export interface StandinOptions {
  kind: "proxmox" | "vcd" | "vcenter";
  /** Proxmox nodes. */
  nodes?: number;
  /** Guests (Proxmox) or VMs (Director, vCenter). */
  guests: number;
  latencyMs: number;
  /** Director's query page cap. */
  maxPageSize?: number;
}

/** Requests the stand-in answered, by method and by `METHOD path` (query strings left out). */
export interface StandinStats {
  total: number;
  byPath: Record<string, number>;
  byMethod: Record<string, number>;
  /** Most requests in flight at once. */
  maxInFlight: number;
  /** Proxmox: most requests in flight at once for each node, queued ones included. */
  maxInFlightByNode?: Record<string, number>;
  /** `METHOD path?query` asked more than once, with how often. */
  repeated: Record<string, number>;
  /** CPU time the stand-in process used (user + system), in seconds. */
  cpuSeconds: number;
}

/** A running stand-in process. */
export interface StandinProcess {
  url: string;
  caPem: string;
  /** The counters since the last call (or the start); resets them. */
  takeStats(): Promise<StandinStats>;
  /** Proxmox: creates one guest on the first node, as an administrator would. */
  addGuest(): Promise<void>;
  stop(): void;
}

/** Starts a stand-in in its own process and waits until it listens. */
export async function startStandin(options: StandinOptions): Promise<StandinProcess> {
  const child = fork(
    path.join(import.meta.dirname, "standin-process.ts"),
    [JSON.stringify(options)],
    {
      execArgv: ["--import", "tsx"],
      stdio: ["ignore", "pipe", "inherit", "ipc"],
    },
  );
  if (!child.stdout) throw new Error("no stdout from the stand-in");
  for await (const line of createInterface({ input: child.stdout })) {
    const { url, caPem } = JSON.parse(line) as { url: string; caPem: string };
    return {
      url,
      caPem,
      takeStats: () => statsOf(child),
      addGuest: () =>
        new Promise<void>((resolve) => {
          child.once("message", () => resolve());
          child.send("add-guest");
        }),
      stop: () => child.send("stop"),
    };
  }
  throw new Error("the stand-in did not start");
}

function statsOf(child: ChildProcess): Promise<StandinStats> {
  return new Promise((resolve) => {
    child.once("message", (m) => resolve(m as StandinStats));
    child.send("stats");
  });
}

/** Requests whose `METHOD path` passes `test`. */
export function countRequests(stats: StandinStats, test: (path: string) => boolean): number {
  return Object.entries(stats.byPath)
    .filter(([p]) => test(p))
    .reduce((n, [, c]) => n + c, 0);
}

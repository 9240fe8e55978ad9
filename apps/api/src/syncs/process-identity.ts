// Who holds a sync lease, as a process on the same machine can check it. A lease only says its
// holder was alive when it last renewed; a server that was killed keeps its lease for up to one
// lease life. When the holder ran on this machine (same boot, same pid namespace), /proc tells for
// certain whether it is still there: its pid missing, or taken by a process started at another
// time, means it is dead. Anything else (another machine, another container, no /proc) is not
// judged, and the lease's expiry decides as before.
import { readFileSync, readlinkSync } from "node:fs";

/** `boot/pidNamespace/pid/startTime` of a process on this machine, or null where not known. */
export type ProcessIdentity = string;

function read(path: string, readFn: (path: string) => string): string | undefined {
  try {
    return readFn(path).trim();
  } catch {
    return undefined;
  }
}

const machine = (() => {
  const boot = read("/proc/sys/kernel/random/boot_id", (p) => readFileSync(p, "utf8"));
  const pidNamespace = read("/proc/self/ns/pid", readlinkSync);
  return boot && pidNamespace ? { boot, pidNamespace } : undefined;
})();

/** The start time of `pid` in clock ticks since boot (field 22 of /proc/PID/stat). */
function startTimeOf(pid: number): string | undefined {
  const stat = read(`/proc/${pid}/stat`, (p) => readFileSync(p, "utf8"));
  // The command name (field 2) may hold spaces and parentheses: count from the last ")".
  const fields = stat?.slice(stat.lastIndexOf(")") + 2).split(" ");
  return fields?.[19];
}

/** The identity of a live process of this machine (this process by default); null without /proc. */
export function processIdentity(pid: number = process.pid): ProcessIdentity | null {
  const startTime = machine && startTimeOf(pid);
  return machine && startTime
    ? `${machine.boot}/${machine.pidNamespace}/${pid}/${startTime}`
    : null;
}

/**
 * True only when the process is certainly gone: it ran on this machine, in this pid namespace,
 * and its pid is free or now another process's. False whenever that cannot be known.
 */
export function isProcessKnownDead(identity: ProcessIdentity | null | undefined): boolean {
  if (!identity || !machine) return false;
  const parts = identity.split("/");
  if (parts.length !== 4) return false;
  const [boot, pidNamespace, pidText, startTime] = parts;
  // TRAP: docs/behaviour.md §8 — a pid is only meaningful in its own namespace on its own boot; judging another
  // container's or machine's pid here would hand a live holder's connection to a second sync.
  if (boot !== machine.boot || pidNamespace !== machine.pidNamespace) return false;
  const pid = Number(pidText);
  if (!Number.isInteger(pid) || pid <= 0) return false;
  const startTimeNow = startTimeOf(pid);
  if (startTimeNow !== undefined) return startTimeNow !== startTime;
  // Not in /proc: gone, unless /proc hides other users' processes (hidepid) — the kernel's answer
  // to a null signal tells them apart.
  try {
    process.kill(pid, 0);
    return false;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "ESRCH";
  }
}

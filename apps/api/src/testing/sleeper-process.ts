// A real process to hold a sync lease in tests: its identity is taken while it runs, so a test
// can kill it and have a lease whose holder is truly dead (not a faked identity).
import { spawn } from "node:child_process";
import { type ProcessIdentity, processIdentity } from "../syncs/process-identity.ts";

/** A running `sleep` process. */
export interface SleeperProcess {
  /** Its identity, taken while it ran (null without /proc). */
  identity: ProcessIdentity | null;
  /** SIGKILL; resolves once the process is gone and reaped. */
  kill(): Promise<void>;
}

/** Starts `sleep 60` and waits until it runs. */
export async function startSleeper(): Promise<SleeperProcess> {
  const child = spawn("sleep", ["60"], { stdio: "ignore" });
  await new Promise((resolve, reject) => {
    child.once("spawn", resolve);
    child.once("error", reject);
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  return {
    identity: processIdentity(child.pid),
    kill: async () => {
      child.kill("SIGKILL");
      await exited;
    },
  };
}

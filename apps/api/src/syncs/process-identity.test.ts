// A lease holder's process is judged dead only when that is certain: real processes are started
// and killed; identities from another boot or pid namespace are never judged.
import { describe, expect, it } from "vitest";
import { startSleeper } from "../testing/sleeper-process.ts";
import { isProcessKnownDead, processIdentity } from "./process-identity.ts";

const isLinux = process.platform === "linux";

describe.skipIf(!isLinux)("a lease holder's process", () => {
  it("is alive while it runs and known dead once killed", async () => {
    expect(isProcessKnownDead(processIdentity())).toBe(false);
    const sleeper = await startSleeper();
    expect(sleeper.identity).toMatch(/^[^/]+\/pid:\[\d+\]\/\d+\/\d+$/);
    expect(isProcessKnownDead(sleeper.identity)).toBe(false);
    await sleeper.kill();
    expect(isProcessKnownDead(sleeper.identity)).toBe(true);
  });

  it("is known dead when its pid now belongs to a process started at another time", () => {
    const [boot, namespace, pid, startTime] = (processIdentity() ?? "").split("/");
    expect(isProcessKnownDead(`${boot}/${namespace}/${pid}/${Number(startTime) + 1}`)).toBe(true);
  });

  it("is never judged from another boot or pid namespace, or without an identity", async () => {
    const sleeper = await startSleeper();
    await sleeper.kill();
    const [boot, namespace, pid, startTime] = (sleeper.identity ?? "").split("/");
    expect(isProcessKnownDead(`other-boot/${namespace}/${pid}/${startTime}`)).toBe(false);
    expect(isProcessKnownDead(`${boot}/pid:[1]/${pid}/${startTime}`)).toBe(false);
    expect(isProcessKnownDead(null)).toBe(false);
    expect(isProcessKnownDead("api@host:123:abcd")).toBe(false);
  });
});

// The light poll (docs/behaviour.md §8.7) at its default 15 s against a Proxmox stand-in in its
// own process: requests per poll in steady state (one /cluster/resources call), and how long a
// guest created on the stand-in just after a poll (the worst case) takes to appear in the API.
import { withBenchServer } from "./bench-server.ts";
import type { Figure } from "./figures.ts";
import type { GraphqlCall } from "./graphql-client.ts";
import { settings } from "./settings.ts";
import { saveConnection, syncAndWait } from "./source-sync.ts";
import { countRequests, type StandinProcess, startStandin } from "./standin.ts";

const POLL_SECONDS = 15;
const NEW_GUEST = "bench-light-poll-new";
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Seconds until the API lists the new guest (polled every 100 ms), or Infinity after 60 s. */
async function secondsUntilListed(call: GraphqlCall, since: number): Promise<number> {
  while (performance.now() - since < 60_000) {
    const { virtualMachines } = await call<{ virtualMachines: { totalCount: number } }>(
      "query($search: String!) { virtualMachines(first: 1, filter: { search: $search }) { totalCount } }",
      { search: NEW_GUEST },
    );
    if (virtualMachines.totalCount > 0) return (performance.now() - since) / 1000;
    await sleep(100);
  }
  return Number.POSITIVE_INFINITY;
}

/** Resolves once the stand-in has answered a poll's list call (checked every 100 ms). */
async function justAfterPoll(standin: StandinProcess): Promise<void> {
  await standin.takeStats();
  for (;;) {
    await sleep(100);
    const stats = await standin.takeStats();
    if (countRequests(stats, (p) => p.endsWith("/cluster/resources")) > 0) return;
  }
}

/** Runs the light-poll scenario. */
export async function benchLightPoll(): Promise<Figure[]> {
  const { proxmoxNodes: nodes, lightPollGuests: guests, latencyMs } = settings;
  const scenario = `Light poll, Proxmox ${nodes} nodes / ${guests.toLocaleString("en-US")} guests`;
  const standin = await startStandin({ kind: "proxmox", nodes, guests, latencyMs });
  try {
    // The scheduler runs the polls (the other scenarios turn it off and sync by hand).
    return await withBenchServer(
      { env: { HYPERLENS_SCHEDULER: "1" } },
      async ({ server, call }) => {
        const id = await saveConnection(
          call,
          { kind: "PROXMOX" },
          {
            name: "bench-light-poll",
            url: standin.url,
            caPem: standin.caPem,
            username: "hyperlens@pve",
            tokenId: "inventory",
            secret: "5f0c8e4e-8f5b-4c1e-9a57-2d3b1f6c7a90",
            // A week: no full sync but the first one within the scenario.
            syncIntervalSeconds: 604_800,
            lightPollSeconds: POLL_SECONDS,
          },
        );
        await syncAndWait(call, id);
        // The scheduler may have started its own first sync beside ours: let it end.
        await sleep(2 * POLL_SECONDS * 1000);
        await standin.takeStats();
        const cpuBefore = server.cpuSeconds();
        await sleep(3 * POLL_SECONDS * 1000 + 2_000);
        const steady = await standin.takeStats();
        const cpuSeconds = server.cpuSeconds() - cpuBefore;
        const polls = countRequests(steady, (p) => p.endsWith("/cluster/resources"));
        const perPoll = polls ? steady.total / polls : Number.POSITIVE_INFINITY;

        // The worst case: the guest is created just after a poll, so it waits a whole interval.
        await justAfterPoll(standin);
        const since = performance.now();
        await standin.addGuest();
        const seconds = await secondsUntilListed(call, since);
        const afterChange = await standin.takeStats();
        return [
          {
            scenario,
            figure: `requests per light poll in steady state (every ${POLL_SECONDS} s)`,
            value: perPoll,
            unit: "",
            target: "1",
            isMet: perPoll === 1,
            note: `${steady.total} requests in ${polls} polls; server CPU ${(cpuSeconds * 1000).toFixed(0)} ms over them`,
          },
          {
            scenario,
            figure: "guest created on the stand-in appears in the API within",
            value: seconds,
            unit: "s",
            target: "≤ 20 s",
            isMet: seconds <= 20,
            note: `created just after a poll (the worst case: a whole ${POLL_SECONDS} s interval), stand-in latency ${latencyMs} ms; the poll that found it asked ${afterChange.total} requests (${JSON.stringify(afterChange.byPath)})`,
          },
        ];
      },
    );
  } finally {
    standin.stop();
  }
}

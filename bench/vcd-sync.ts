// Cloud Director: 5,000 VMs, a page cap of 25 (128 asked), 20 ms per request.
import type { Figure } from "./figures.ts";
import { settings } from "./settings.ts";
import { benchSourceSync } from "./source-sync.ts";
import { countRequests } from "./standin.ts";

/** Runs the Director sync scenario. */
export function benchVcdSync(): Promise<Figure[]> {
  const { vcdVms: vms, vcdPageCap: pageCap, latencyMs } = settings;
  return benchSourceSync({
    name: `Director ${vms.toLocaleString("en-US")} VMs / page cap ${pageCap}`,
    kind: "VCD",
    standin: { kind: "vcd", guests: vms, latencyMs, maxPageSize: pageCap },
    limits: { perConnection: 4 },
    speedUpTarget: 3.5,
    connection: (url, caPem) => ({
      url,
      caPem,
      username: "administrator@System",
      secret: "standin-password",
    }),
    describeRequests: (stats) => {
      const pages = countRequests(stats, (p) => p.endsWith("/api/query"));
      const sections = countRequests(stats, (p) =>
        /networkConnectionSection|virtualHardwareSection/.test(p),
      );
      return `${pages} query pages, ${sections} NIC and disk sections, ${stats.total - pages - sections} sessions and edge gateways`;
    },
  });
}

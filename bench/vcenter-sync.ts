// vCenter: 10,000 VMs, 20 ms per request. The VM list answers at most 4,000 VMs per call, so the
// whole list is refused and the per-host lists are the list.
import type { Figure } from "./figures.ts";
import { settings } from "./settings.ts";
import { benchSourceSync } from "./source-sync.ts";
import { countRequests } from "./standin.ts";

/** Runs the vCenter sync scenario. */
export function benchVcenterSync(): Promise<Figure[]> {
  const { vcenterVms: vms, latencyMs } = settings;
  return benchSourceSync({
    name: `vCenter ${vms.toLocaleString("en-US")} VMs`,
    kind: "VCENTER",
    standin: { kind: "vcenter", guests: vms, latencyMs },
    limits: { perConnection: 4 },
    speedUpTarget: 3.5,
    connection: (url, caPem) => ({
      url,
      caPem,
      username: "hyperlens@vsphere.local",
      secret: "standin-password",
    }),
    describeRequests: (stats) => {
      const lists = countRequests(stats, (p) => p === "GET /api/vcenter/vm");
      const guests = countRequests(stats, (p) => p.endsWith("/guest/networking/interfaces"));
      const infos = countRequests(stats, (p) => /^GET \/api\/vcenter\/vm\/[^/]+$/.test(p));
      const rest = stats.total - lists - guests - infos;
      return `${lists} VM list calls (whole list, then per host), ${infos} VM details, ${guests} guest interface reads, ${rest} session, hosts and placement`;
    },
  });
}

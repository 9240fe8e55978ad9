// Cloud Director: 5,000 VMs, a page cap of 25, 20 ms per request.
import { benchSourceSync } from "./source-sync.ts";

const VMS = Number(process.env.BENCH_VCD_VMS ?? 5000);
const LATENCY_MS = Number(process.env.BENCH_LATENCY_MS ?? 20);
const PAGE_CAP = 25;

/** Runs the Director sync benchmark and prints its figures. */
export function benchVcdSync() {
  return benchSourceSync({
    title: `Director full sync: ${VMS} VMs, page cap ${PAGE_CAP} (128 asked), ${LATENCY_MS} ms per request`,
    kind: "VCD",
    standin: { kind: "vcd", guests: VMS, latencyMs: LATENCY_MS, maxPageSize: PAGE_CAP },
    connection: (url, caPem) => ({
      url,
      caPem,
      username: "administrator@System",
      secret: "standin-password",
    }),
    // Paged lists share a path (the page is in the query string); a session is opened and closed per sync.
    repeats: /\/api\/query$|\/edgeGateways$|\/sessions/,
    describeRequests: (stats) => {
      const entries = Object.entries(stats.byPath);
      const sum = (test: (p: string) => boolean) =>
        entries.filter(([p]) => test(p)).reduce((n, [, c]) => n + c, 0);
      const pages = sum((p) => p.endsWith("/api/query"));
      const sections = sum((p) => /networkConnectionSection|virtualHardwareSection/.test(p));
      return `${pages} query pages, ${sections} NIC and disk sections, ${stats.total - pages - sections} sessions and edge gateways`;
    },
  });
}

if (import.meta.url === `file://${process.argv[1]}`) await benchVcdSync();

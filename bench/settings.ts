// The benchmark's knobs, read once from the environment (documented at the top of index.ts).

const number = (name: string, fallback: number): number => {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name} must be a number, not ${raw}`);
  return value;
};

/** Scenario names, in the order `npm run bench` runs them. */
export const SCENARIOS = [
  "startup",
  "proxmox",
  "vcd",
  "vcenter",
  "list",
  "inventory-export",
  "sso",
  "webhooks",
  "light-poll",
] as const;
/** One scenario name. */
export type ScenarioName = (typeof SCENARIOS)[number];

function onlyScenarios(): Set<ScenarioName> {
  const raw = process.env.BENCH_ONLY?.trim();
  if (!raw) return new Set(SCENARIOS);
  const names = raw.split(",").map((s) => s.trim());
  const unknown = names.filter((n) => !(SCENARIOS as readonly string[]).includes(n));
  if (unknown.length) {
    throw new Error(`BENCH_ONLY: unknown ${unknown.join(", ")} (known: ${SCENARIOS.join(", ")})`);
  }
  return new Set(names as ScenarioName[]);
}

function runtime(): "bundle" | "tsx" {
  const raw = process.env.BENCH_RUNTIME ?? "bundle";
  if (raw !== "bundle" && raw !== "tsx")
    throw new Error(`BENCH_RUNTIME: bundle or tsx, not ${raw}`);
  return raw;
}

/** Every knob, with the issue-8 scale as defaults. */
export const settings = {
  only: onlyScenarios(),
  /** `bundle`: apps/api/dist/server.mjs, as production runs it; `tsx`: the sources. */
  runtime: runtime(),
  latencyMs: number("BENCH_LATENCY_MS", 20),
  proxmoxNodes: number("BENCH_PROXMOX_NODES", 10),
  proxmoxGuests: number("BENCH_PROXMOX_GUESTS", 5000),
  vcdVms: number("BENCH_VCD_VMS", 5000),
  vcdPageCap: number("BENCH_VCD_PAGE_CAP", 25),
  vcenterVms: number("BENCH_VCENTER_VMS", 10_000),
  listVms: number("BENCH_LIST_VMS", 50_000),
  listRuns: number("BENCH_LIST_RUNS", 200),
  exportVms: number("BENCH_EXPORT_VMS", 50_000),
  exportRuns: number("BENCH_EXPORT_RUNS", 5),
  startupRuns: number("BENCH_STARTUP_RUNS", 3),
  ssoRuns: number("BENCH_SSO_RUNS", 40),
  /** Change-feed events delivered to one webhook endpoint (webhooks). */
  webhookEvents: number("BENCH_WEBHOOK_EVENTS", 5000),
  /** Guests of the light-poll scenario's Proxmox cluster (on BENCH_PROXMOX_NODES nodes). */
  lightPollGuests: number("BENCH_LIGHT_POLL_GUESTS", 1000),
  /** A PostgreSQL server: every scenario then works in its own throw-away database on it. */
  databaseUrl: process.env.DATABASE_URL || undefined,
};

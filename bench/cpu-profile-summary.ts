// Where a Hyperlens server spent its CPU: a V8 .cpuprofile (BENCH_CPU_PROF) summed by self time,
// per function and per source (hyper-http, logging, Prisma, PGlite, …), optionally only within
// time windows (one sync). Bundle frames are mapped back to their sources through the bundle's
// source map, so the bundle and tsx runs read alike.
//
//   npx tsx bench/cpu-profile-summary.ts <file.cpuprofile> [fromMicros toMicros]
import { readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** A span of the profiled process's monotonic clock (process.hrtime), in microseconds. */
export interface ProfileWindow {
  from: number;
  to: number;
}

/** Now on the clock V8 stamps its samples with (microseconds). */
export const profileClockMicros = (): number => Number(process.hrtime.bigint() / 1000n);

/** Sources in the order they are tried: the first whose test matches a frame names it. */
const SOURCES: [name: string, test: (file: string, fn: string) => boolean][] = [
  ["idle", (f, fn) => f === "" && fn === "(idle)"],
  ["garbage collection", (f, fn) => f === "" && fn === "(garbage collector)"],
  ["hyper-http (request, response, retry)", (f) => f.includes("packages/hyper-http/")],
  ["logging", (f) => f.includes("apps/api/src/logger.ts")],
  ["metrics", (f) => f.includes("prom-client") || f.includes("apps/api/src/metrics/")],
  ["spans", (f) => f.includes("@opentelemetry") || f.includes("apps/api/src/telemetry/")],
  ["Proxmox client and adapter", (f) => f.includes("packages/proxmox/")],
  ["vCenter / Director adapter", (f) => /packages\/(vcenter|vcd)\//.test(f)],
  [
    "fingerprint, canonical JSON",
    (f) => /packages\/sync\/src\/(fingerprint|canonical-json|normalize)\.ts/.test(f),
  ],
  [
    "planning, diff",
    (f) => /packages\/sync\/src\/(plan|diff|changes|keyed-entities|addresses)\.ts/.test(f),
  ],
  ["SQL writes (sync)", (f) => f.includes("packages/sync/")],
  ["Prisma", (f) => f.includes("@prisma/") || f.includes("packages/db/src/generated")],
  ["PGlite", (f) => f.includes("@electric-sql/")],
  ["database layer", (f) => f.includes("packages/db/")],
  ["GraphQL", (f) => /graphql|@pothos|yoga|@envelop|@whatwg-node/.test(f)],
  [
    "undici, TLS, sockets",
    (f) => f.includes("undici") || /^node:(internal\/)?(tls|net|_tls|stream)/.test(f),
  ],
  ["shared", (f) => f.includes("packages/shared/")],
  ["server (apps/api)", (f) => f.includes("apps/api/src/")],
  ["zod", (f) => f.includes("/zod/")],
  ["Node internals", (f) => f.startsWith("node:")],
  ["V8 (program), unattributed native", (f) => f === ""],
  ["other libraries", () => true],
];

/** Frames V8 makes up, which have no caller to stand for. */
const SPECIAL = new Set(["(idle)", "(garbage collector)", "(program)", "(root)"]);

// WebAssembly too: undici's HTTP parser (llhttp) and PGlite are both wasm, told apart by their caller.
const isBorrowed = (frame: CallFrame) =>
  frame.url.startsWith("node:") ||
  frame.url.startsWith("wasm://") ||
  (frame.url === "" && !SPECIAL.has(frame.functionName));

/** Maps bundle positions to sources, one parsed map per bundle file. */
function sourceMapper() {
  const maps = new Map<string, SourceMap | null>();
  const mapDirs = new Map<string, string>();
  const mapOf = (url: string): SourceMap | null => {
    if (!maps.has(url)) {
      let map: SourceMap | null = null;
      try {
        const file = fileURLToPath(url);
        if (file.includes("/dist/")) {
          map = new SourceMap(JSON.parse(readFileSync(`${file}.map`, "utf8")));
          mapDirs.set(url, path.dirname(file));
        }
      } catch {
        map = null;
      }
      maps.set(url, map);
    }
    return maps.get(url) ?? null;
  };
  return (frame: CallFrame): { file: string; line: number } => {
    const map = frame.url.startsWith("file://") ? mapOf(frame.url) : null;
    const entry = map?.findEntry(frame.lineNumber, frame.columnNumber);
    if (entry && "originalSource" in entry && entry.originalSource) {
      const dir = mapDirs.get(frame.url) ?? "";
      return { file: path.resolve(dir, entry.originalSource), line: entry.originalLine + 1 };
    }
    return { file: frame.url, line: frame.lineNumber + 1 };
  };
}

const relative = (file: string) => {
  const root = path.resolve(import.meta.dirname, "..");
  const plain = file.startsWith("file://") ? fileURLToPath(file) : file;
  return plain.startsWith(root) ? path.relative(root, plain) : plain;
};

/** Self time in ms per function and per source, within `windows` (the whole profile without). */
export function summariseProfile(profile: CpuProfile, windows: ProfileWindow[] = []) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfMicros = new Map<number, number>();
  let time = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    time += profile.timeDeltas[i] ?? 0;
    const next = profile.timeDeltas[i + 1] ?? 0;
    if (windows.length && !windows.some((w) => time >= w.from && time < w.to)) continue;
    const id = profile.samples[i] as number;
    selfMicros.set(id, (selfMicros.get(id) ?? 0) + next);
  }
  const parentOf = new Map<number, ProfileNode>();
  for (const node of profile.nodes) {
    for (const child of node.children ?? []) parentOf.set(child, node);
  }
  const locate = sourceMapper();
  const sourceOf = (file: string, fn: string) =>
    (SOURCES.find(([, test]) => test(file, fn)) ?? ["other"])[0];
  const bySource = new Map<string, number>();
  const byFunction = new Map<string, { source: string; ms: number }>();
  for (const [id, micros] of selfMicros) {
    const node = byId.get(id) as ProfileNode;
    const frame = node.callFrame;
    const { file, line } = locate(frame);
    // Native and Node functions (string writes, JSON, fs, TLS) count for the code that called
    // them; with no such caller (a socket's data event) for the function itself.
    let owner = node;
    for (let at = node; isBorrowed(at.callFrame); ) {
      const parent = parentOf.get(at.id);
      if (!parent || parent.callFrame.functionName === "(root)") break;
      at = parent;
      if (!isBorrowed(at.callFrame)) owner = at;
    }
    const ownerAt = owner === node ? { file, line } : locate(owner.callFrame);
    const source = sourceOf(ownerAt.file, owner.callFrame.functionName);
    const ms = micros / 1000;
    bySource.set(source, (bySource.get(source) ?? 0) + ms);
    const where = ownerAt.file ? ` ${relative(ownerAt.file)}:${ownerAt.line}` : "";
    const caller = owner === node ? "" : ` ← ${owner.callFrame.functionName || "(anonymous)"}`;
    const key = `${frame.functionName || "(anonymous)"}${caller}${where}`;
    const entry = byFunction.get(key) ?? { source, ms: 0 };
    entry.ms += ms;
    byFunction.set(key, entry);
  }
  const busyMs = [...bySource].filter(([s]) => s !== "idle").reduce((sum, [, ms]) => sum + ms, 0);
  return {
    busyMs,
    sources: [...bySource].filter(([s]) => s !== "idle").sort((a, b) => b[1] - a[1]),
    functions: [...byFunction]
      .filter(([, f]) => f.source !== "idle")
      .sort((a, b) => b[1].ms - a[1].ms),
  };
}

/** The summary as text: the sources, then the `top` functions, by self time. */
export function formatProfileSummary(
  title: string,
  summary: ReturnType<typeof summariseProfile>,
  top = 25,
): string {
  const share = (ms: number) => `${((100 * ms) / summary.busyMs).toFixed(1).padStart(5)} %`;
  const lines = [
    `${title}: ${summary.busyMs.toFixed(0)} ms busy (idle left out), self time by source`,
  ];
  for (const [source, ms] of summary.sources) {
    lines.push(`  ${ms.toFixed(0).padStart(7)} ms ${share(ms)}  ${source}`);
  }
  lines.push(`  top ${top} functions by self time:`);
  for (const [name, { source, ms }] of summary.functions.slice(0, top)) {
    lines.push(`  ${ms.toFixed(0).padStart(7)} ms ${share(ms)}  ${name}  [${source}]`);
  }
  return lines.join("\n");
}

/** Reads a .cpuprofile file. */
export function readProfile(file: string): CpuProfile {
  return JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const [file, from, to] = process.argv.slice(2);
  if (!file) {
    console.error(
      "usage: tsx bench/cpu-profile-summary.ts <file.cpuprofile> [fromMicros toMicros]",
    );
    process.exit(2);
  }
  const windows = from && to ? [{ from: Number(from), to: Number(to) }] : [];
  console.log(
    formatProfileSummary(path.basename(file), summariseProfile(readProfile(file), windows)),
  );
}

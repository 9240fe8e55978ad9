// The figures every scenario returns, the one table printed at the end, and bench/results.json.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import os from "node:os";

/** One measured figure, with its target when the issue sets one. */
export interface Figure {
  scenario: string;
  figure: string;
  value: number;
  unit: string;
  /** The target as people read it ("≥ 3.5×", "0", "< 300 MB"). */
  target?: string;
  /** Whether the value meets the target; null when the target does not apply to this run. */
  isMet?: boolean | null;
  /** What the value is made of (request breakdown, per-phase figures). */
  note?: string;
}

/** How a figure's value is printed. */
function shown(f: Figure): string {
  const digits =
    f.unit === "s" ? 1 : f.unit === "×" || (f.unit === "ms" && Math.abs(f.value) < 10) ? 2 : 0;
  const value = f.value.toLocaleString("en-US", {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  });
  return f.unit === "×" ? `${value}×` : f.unit ? `${value} ${f.unit}` : value;
}

function verdict(f: Figure): string {
  if (f.target === undefined) return "";
  if (f.isMet === null || f.isMet === undefined) return "n/a";
  return f.isMet ? "PASS" : "MISS";
}

/** The table: scenario | figure | value | target | PASS/MISS, then the notes. */
export function formatTable(figures: Figure[]): string {
  const header = ["scenario", "figure", "value", "target", "result"];
  const rows = figures.map((f) => [f.scenario, f.figure, shown(f), f.target ?? "", verdict(f)]);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? "").length)));
  const line = (cells: string[]) =>
    cells
      .map((c, i) => (i === 2 ? c.padStart(widths[i] ?? 0) : c.padEnd(widths[i] ?? 0)))
      .join(" | ")
      .trimEnd();
  const notes = figures.filter((f) => f.note).map((f) => `  ${f.scenario}, ${f.figure}: ${f.note}`);
  return [
    line(header),
    widths.map((w) => "-".repeat(w)).join("-|-"),
    ...rows.map(line),
    ...(notes.length ? ["", "notes:", ...notes] : []),
  ].join("\n");
}

function gitCommit(): string {
  try {
    const run = (args: string[]) => execFileSync("git", args, { encoding: "utf8" }).trim();
    const commit = run(["rev-parse", "HEAD"]);
    return run(["status", "--porcelain", "--untracked-files=no"]) ? `${commit}+dirty` : commit;
  } catch {
    return "unknown";
  }
}

/** Everything a later run is compared against: the figures and where they were taken. */
export function writeResults(
  file: string,
  figures: Figure[],
  run: {
    database: string;
    runtime: string;
    settings: Record<string, unknown>;
    startedAt: Date;
    /** The 1-minute load average when the run started: other work on the machine skews the figures. */
    loadAtStart: number;
  },
): void {
  const cpus = os.cpus();
  const results = {
    date: run.startedAt.toISOString(),
    seconds: Math.round((Date.now() - run.startedAt.getTime()) / 1000),
    commit: gitCommit(),
    machine: {
      cpus: cpus.length,
      cpuModel: cpus[0]?.model ?? "unknown",
      memoryMb: Math.round(os.totalmem() / 1024 ** 2),
      loadAtStart: run.loadAtStart,
      loadAtEnd: os.loadavg()[0] ?? 0,
      platform: `${os.platform()} ${os.release()}`,
    },
    node: process.version,
    database: run.database,
    runtime: run.runtime,
    settings: run.settings,
    figures,
  };
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
}

// Prints the plain closing line "N passed, N failed[, N skipped]" that any CI can read, and the
// slowest test files, so whoever keeps CI within its time budget sees where the minutes go.
import type { Reporter, TestModule } from "vitest/node";

const SLOWEST_SHOWN = 12;

function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}

function slowestModules(modules: ReadonlyArray<TestModule>): string {
  const timed = modules.map((module) => {
    const d = module.diagnostic();
    return { name: module.moduleId, ms: d.duration + d.collectDuration + d.setupDuration };
  });
  const total = timed.reduce((sum, m) => sum + m.ms, 0);
  const lines = timed
    .sort((a, b) => b.ms - a.ms)
    .slice(0, SLOWEST_SHOWN)
    .map((m) => `  ${seconds(m.ms).padStart(8)}  ${m.name.replace(`${process.cwd()}/`, "")}`);
  return `\nSlowest test files (of ${timed.length}, ${seconds(total)} in all):\n${lines.join("\n")}\n`;
}

export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>, errors: ReadonlyArray<unknown>) {
    let passed = 0;
    let failed = errors.length;
    let skipped = 0;
    for (const module of modules) {
      if (module.state() === "failed" && [...module.children.allTests()].length === 0) failed++;
      for (const test of module.children.allTests()) {
        const state = test.result().state;
        if (state === "passed") passed++;
        else if (state === "failed") failed++;
        else skipped++;
      }
    }
    if (modules.length > 1) process.stdout.write(slowestModules(modules));
    const tail = skipped ? `, ${skipped} skipped` : "";
    process.stdout.write(`\n${passed} passed, ${failed} failed${tail}\n`);
  }
}

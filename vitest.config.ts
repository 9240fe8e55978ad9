// One vitest run over every package: one summary for people and CI (`npm test`).
import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: ["packages/*", "apps/api", "apps/web"],
    reporters: ["default", "./scripts/summary-reporter.ts"],
    // Most test files wait on stand-ins, child processes and timers rather than compute: half again
    // as many files as cores at once (3 on CI's 2 cores) took the API suite from about 35 minutes
    // to 16 under load, where vitest's default (cores - 1) ran one file at a time.
    maxWorkers: Math.max(2, Math.ceil(availableParallelism() * 1.5)),
  },
});

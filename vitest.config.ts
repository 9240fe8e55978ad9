// One vitest run over every package: one summary for people and CI (`npm test`).
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    projects: ["packages/*", "apps/api", "apps/web"],
    reporters: ["default", "./scripts/summary-reporter.ts"],
  },
});

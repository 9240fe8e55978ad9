// axe-core in the page: serious and critical violations fail the run. It is a devDependency, so
// it is always installed; a run without it skips the checks locally and fails in CI (§9.55).
import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

function axeSource(): string | undefined {
  try {
    return readFileSync(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
  } catch {
    return undefined;
  }
}

const source = axeSource();

/** True when axe-core can be loaded. */
export const hasAxe = source !== undefined;

// TRAP: docs/behaviour.md §9.55 — without this a CI run missing axe-core would pass every page unchecked.
if (!hasAxe && process.env.CI)
  throw new Error("axe-core is missing: CI checks every page with it (npm ci installs it).");

/** Serious and critical axe violations on the current page, as readable lines. */
export async function seriousViolations(page: Page): Promise<string[]> {
  if (!source) return [];
  // Through the DevTools protocol, not a <script>: the app's Content-Security-Policy forbids inline
  // scripts, as it should.
  await page.evaluate(source);
  const violations = await page.evaluate(async () => {
    const axe = (
      globalThis as unknown as { axe: { run: () => Promise<{ violations: AxeViolation[] }> } }
    ).axe;
    const result = await axe.run();
    return result.violations;
  });
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map(
      (v) =>
        `${v.id} (${v.impact}): ${v.help} — ${JSON.stringify(v.nodes.slice(0, 3).map((n) => n.target))}`,
    );
}

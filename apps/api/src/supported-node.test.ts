// The supported Node range is stated in several places (engines, .nvmrc, the image's base, CI's
// Node, the bundle's target, the README); these rules keep them one statement. The floor must also
// cover every installed package: npm only warns about engines, so a dependency that outgrows the
// floor shows first as a crash on an old Node that the README still promises.
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const root = path.resolve(import.meta.dirname, "../../..");
const read = (file: string) => readFileSync(path.join(root, file), "utf8");

type Version = [number, number, number];

/** "22.15" → [22, 15, 0]; the numeric prefix of a semver comparator's version. */
function parseVersion(text: string): Version {
  const [major = 0, minor = 0, patch = 0] = text
    .split(".")
    .map((part) => Number.parseInt(part, 10))
    .map((n) => (Number.isNaN(n) ? 0 : n));
  return [major, minor, patch];
}

function compare(a: Version, b: Version): number {
  return a[0] - b[0] || a[1] - b[1] || a[2] - b[2];
}

/**
 * The oldest Node an engines range lets in: the lowest of its `||` alternatives, each one's
 * lower bound being its first comparator (">=22.15.0", "^20.19.0", "22.x", "*").
 */
function lowestAllowed(range: string): Version {
  const bounds = range.split("||").map((alternative) => {
    const first = alternative.trim().match(/^(>=|>|\^|~|=)?\s*v?([\d.x*]+)/);
    return parseVersion(first?.[2] ?? "0");
  });
  return bounds.reduce((low, v) => (compare(v, low) < 0 ? v : low));
}

const enginesFloor = (() => {
  const range: string = JSON.parse(read("package.json")).engines.node;
  // One floor, so CI's Node 22 check (.ci/run) and these rules read it the same way.
  if (!/^>=\d+\.\d+(\.\d+)?$/.test(range)) throw new Error(`engines.node is not ">=x.y": ${range}`);
  return parseVersion(range.replace(">=", ""));
})();
const nvmrcMajor = () => Number.parseInt(read(".nvmrc").trim(), 10);

describe("the supported Node", () => {
  it("is at least what every installed package declares in its engines", () => {
    const lock = JSON.parse(read("package-lock.json")) as {
      packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
    };
    const tooNew = Object.entries(lock.packages)
      .flatMap(([where, pkg]) => {
        const range = Array.isArray(pkg.engines) ? undefined : pkg.engines?.node;
        if (where === "" || range === undefined) return [];
        return compare(lowestAllowed(range), enginesFloor) > 0
          ? [`${where.replace(/^.*node_modules\//, "")}@${pkg.version}: node ${range}`]
          : [];
      })
      .sort();
    expect(tooNew, `packages needing more than node >=${enginesFloor.join(".")}`).toEqual([]);
  });

  it("is a Node 22 floor and the Node 24 line in .nvmrc, CI and the image", () => {
    expect(enginesFloor[0]).toBe(22);
    expect(nvmrcMajor()).toBe(24);
    const ciNode = read(".ci/run").match(/^export NODE_VERSION=(\d+)\.\d+\.\d+$/m)?.[1];
    expect(Number(ciNode), ".ci/run's NODE_VERSION").toBe(nvmrcMajor());
    const image = read("Dockerfile").match(/^ARG NODE_IMAGE=node:(\d+)\.\d+\.\d+-/m)?.[1];
    expect(Number(image), "the Dockerfile's default NODE_IMAGE").toBe(nvmrcMajor());
  });

  it("is what the bundle is compiled for and what the README promises", () => {
    const floor = `${enginesFloor[0]}.${enginesFloor[1]}`;
    expect(read("apps/api/scripts/bundle-options.mjs")).toContain(`target: "node${floor}",`);
    const readme = read("README.md").replace(/\s+/g, " ");
    expect(readme).toContain(`Needs Node.js ${nvmrcMajor()} `);
    expect(readme).toContain(`Node.js ${floor} or newer`);
  });
});

describe("lowestAllowed", () => {
  it("reads the forms the lockfile holds", () => {
    expect(lowestAllowed(">=22.15.0")).toEqual([22, 15, 0]);
    expect(lowestAllowed("^20.19.0 || >=22.12.0")).toEqual([20, 19, 0]);
    expect(lowestAllowed("^22.12.0 || ^24.0.0 || >=26.0.0")).toEqual([22, 12, 0]);
    expect(lowestAllowed(">= 6.0.0")).toEqual([6, 0, 0]);
    expect(lowestAllowed("*")).toEqual([0, 0, 0]);
  });
});

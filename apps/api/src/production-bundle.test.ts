// The production bundle (scripts/build.mjs) carries demo mode's stand-ins, but nothing of what
// only tests and benchmarks use: no module of a testing folder — @hyperlens/standins/testing's
// fault switches, hostile replies and request log included — is even read by the build.
import path from "node:path";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { bundleOptions } from "../scripts/bundle-options.mjs";

const root = path.resolve(import.meta.dirname, "../../..");

async function bundledSources(): Promise<string[]> {
  const { metafile } = await build({
    ...bundleOptions(root),
    // Input paths in the metafile are relative to this.
    absWorkingDir: root,
    outdir: path.join(root, "apps/api/dist"),
    write: false,
    metafile: true,
    logLevel: "silent",
  });
  return Object.keys(metafile.inputs);
}

describe("the production bundle", () => {
  it("carries the demo's stand-ins and no module of a testing folder", async () => {
    const sources = await bundledSources();
    expect(sources).toContain("packages/standins/src/http/server.ts");
    expect(sources).toContain("packages/standins/src/proxmox/demo-cluster.ts");
    expect(sources.filter((source) => /(^|\/)(testing|test-support)\//.test(source))).toEqual([]);
  });
});

// Without OTEL_* settings nothing is traced and the OpenTelemetry SDK is never loaded, so a server
// that does not trace pays nothing for it. Checked in a fresh Node process, where the module
// cache shows exactly what the server's code loaded.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { loadConfig } from "../config.ts";
import { createLogger } from "../logger.ts";
import { startTracing } from "./tracing.ts";

const run = promisify(execFile);
const src = path.resolve(import.meta.dirname, "..");
const SDK = /^@opentelemetry\/(sdk-|exporter-|resources|otlp-)/;

/** Loads `modules` (relative to src/) and starts tracing from the environment, in a new process. */
async function probe(modules: string[], env: Record<string, string>) {
  const script = `
    import { createRequire } from "node:module";
    import { pathToFileURL } from "node:url";
    const at = (file) => pathToFileURL(${JSON.stringify(src)} + "/" + file).href;
    for (const file of ${JSON.stringify(modules)}) await import(at(file));
    const { loadConfig } = await import(at("config.ts"));
    const { startTracing } = await import(at("telemetry/tracing.ts"));
    const { createLogger } = await import(at("logger.ts"));
    const tracing = await startTracing(loadConfig(process.env).tracing, createLogger("silent"));
    const packages = Object.keys(createRequire(import.meta.url).cache)
      .map((file) => file.split("/node_modules/").at(-1).split("/").slice(0, 2).join("/"))
      .filter((name) => name.startsWith("@opentelemetry/"));
    console.log(JSON.stringify({ isTracing: tracing !== undefined, packages: [...new Set(packages)] }));
    await tracing?.shutdown();
  `;
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !name.startsWith("OTEL_")),
  );
  const { stdout } = await run(
    process.execPath,
    ["--import", "tsx", "--input-type=module", "-e", script],
    { cwd: src, env: { ...clean, ...env } },
  );
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as {
    isTracing: boolean;
    packages: string[];
  };
}

describe("tracing off", () => {
  it("is the default: no tracer is started", async () => {
    expect(loadConfig({}).tracing).toBeNull();
    expect(await startTracing(loadConfig({}).tracing, createLogger("silent"))).toBeUndefined();
  });

  it("loads no OpenTelemetry SDK module in a server process without OTEL_* settings", async () => {
    const off = await probe(["app.ts"], {});
    expect(off.isTracing).toBe(false);
    expect(off.packages.filter((name) => SDK.test(name))).toEqual([]);
  });

  it("does load it once an exporter is configured (the probe can see it)", async () => {
    const on = await probe([], { OTEL_TRACES_EXPORTER: "otlp" });
    expect(on.isTracing).toBe(true);
    expect(on.packages).toEqual(
      expect.arrayContaining([
        "@opentelemetry/sdk-trace-base",
        "@opentelemetry/exporter-trace-otlp-http",
      ]),
    );
  });
});

// The OTEL_* variables mean what the OpenTelemetry specification says, and tracing stays off
// unless an exporter or an endpoint is named.
import { InMemorySpanExporter } from "@opentelemetry/sdk-trace-base";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../config.ts";
import { createTracing } from "./tracer-provider.ts";

const tracingOf = (env: Record<string, string>) => loadConfig(env).tracing;

describe("when tracing is on", () => {
  it("is off with no OTEL_* variable at all", () => {
    expect(tracingOf({})).toBeNull();
  });

  it("is on with only an endpoint, exporting OTLP to its /v1/traces", () => {
    expect(tracingOf({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" })).toMatchObject({
      exporters: ["otlp"],
      otlpTracesUrl: "http://collector:4318/v1/traces",
    });
  });

  it("uses the traces endpoint as given, ahead of the general one", () => {
    const config = tracingOf({
      OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
      OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://traces.example/ingest",
    });
    expect(config?.otlpTracesUrl).toBe("https://traces.example/ingest");
  });

  it("is on with only an exporter named, posting to the specification's default endpoint", () => {
    expect(tracingOf({ OTEL_TRACES_EXPORTER: "otlp" })?.otlpTracesUrl).toBe(
      "http://localhost:4318/v1/traces",
    );
    expect(tracingOf({ OTEL_TRACES_EXPORTER: "Console" })?.exporters).toEqual(["console"]);
  });

  it("is off when disabled or when the exporter is none, whatever else is set", () => {
    const endpoint = { OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318" };
    expect(tracingOf({ ...endpoint, OTEL_SDK_DISABLED: "TRUE" })).toBeNull();
    expect(tracingOf({ ...endpoint, OTEL_TRACES_EXPORTER: "none" })).toBeNull();
    expect(tracingOf({ ...endpoint, OTEL_SDK_DISABLED: "false" })).not.toBeNull();
  });

  it("names the service from OTEL_SERVICE_NAME, then the resource attributes, then hyperlens", () => {
    const on = { OTEL_TRACES_EXPORTER: "otlp" };
    expect(tracingOf(on)?.serviceName).toBe("hyperlens");
    const fromAttributes = tracingOf({
      ...on,
      OTEL_RESOURCE_ATTRIBUTES: "service.name=inventory,team=infra%20ops",
    });
    expect(fromAttributes?.serviceName).toBe("inventory");
    expect(fromAttributes?.resourceAttributes).toMatchObject({ team: "infra ops" });
    expect(
      tracingOf({ ...on, OTEL_SERVICE_NAME: "hl", OTEL_RESOURCE_ATTRIBUTES: "service.name=x" })
        ?.serviceName,
    ).toBe("hl");
  });

  it("samples parent-based always-on by default; names are case-insensitive", () => {
    const on = { OTEL_TRACES_EXPORTER: "otlp" };
    expect(tracingOf(on)).toMatchObject({ sampler: "parentbased_always_on", samplerRatio: 1 });
    expect(
      tracingOf({ ...on, OTEL_TRACES_SAMPLER: "TraceIdRatio", OTEL_TRACES_SAMPLER_ARG: "0.25" }),
    ).toMatchObject({ sampler: "traceidratio", samplerRatio: 0.25 });
  });

  it("lists every wrong OTEL_* variable in one message, without echoing header values", () => {
    const env = {
      OTEL_TRACES_EXPORTER: "zipkin",
      OTEL_EXPORTER_OTLP_ENDPOINT: "collector:4318",
      OTEL_EXPORTER_OTLP_HEADERS: "api-key-without-equals-sign-s3cr3t",
      OTEL_TRACES_SAMPLER: "sometimes",
      OTEL_TRACES_SAMPLER_ARG: "2",
      OTEL_SDK_DISABLED: "1",
    };
    let message = "";
    try {
      loadConfig(env);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      message = (error as Error).message;
    }
    for (const name of Object.keys(env)) expect(message).toContain(`${name}:`);
    expect(message).not.toContain("s3cr3t");
    expect(() => loadConfig({ OTEL_TRACES_EXPORTER: "none,otlp" })).toThrow(
      /OTEL_TRACES_EXPORTER: must be otlp, console/,
    );
  });
});

describe("the configured sampler decides what is recorded", () => {
  async function recorded(env: Record<string, string>): Promise<number> {
    const config = tracingOf({ OTEL_TRACES_EXPORTER: "otlp", ...env });
    if (!config) throw new Error("tracing should be on");
    const exporter = new InMemorySpanExporter();
    const tracing = await createTracing(config, { exporters: [exporter] });
    for (let i = 0; i < 20; i++) tracing.tracer.startSpan(`span ${i}`).end();
    await tracing.flush();
    const count = exporter.getFinishedSpans().length;
    await tracing.shutdown();
    return count;
  }

  it("records every root span by default and none with always_off or a zero ratio", async () => {
    expect(await recorded({})).toBe(20);
    expect(await recorded({ OTEL_TRACES_SAMPLER: "always_off" })).toBe(0);
    expect(
      await recorded({
        OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
        OTEL_TRACES_SAMPLER_ARG: "0",
      }),
    ).toBe(0);
  });
});

// The viewer names the release answering, so an integrator (or the web app) can tell which
// Hyperlens it talks to; anonymous callers have no viewer and so learn nothing from it.
import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../testing/test-app.ts";

const { version } = JSON.parse(
  readFileSync(path.resolve(import.meta.dirname, "../../../../package.json"), "utf8"),
);

describe("the viewer", () => {
  let app: TestApp;
  beforeAll(async () => {
    app = await startTestApp();
  });
  afterAll(async () => app?.close());

  it("names the release answering, as package.json has it", async () => {
    const cookie = await app.signedInAs("reader", { capabilities: ["VIEW_INVENTORY"] });
    const res = await app.graphql<{ viewer: { version: string } }>(
      "{ viewer { version } }",
      {},
      { cookie },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data?.viewer.version).toBe(version);
  });

  it("is null for an anonymous caller", async () => {
    const res = await app.graphql("{ viewer { version } }");
    expect(res.body.data).toEqual({ viewer: null });
  });
});

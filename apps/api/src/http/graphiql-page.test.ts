// docs/behaviour.md §11.3: GraphiQL is served from the app itself and loads nothing from another
// origin — its page, built from apps/web as the server ships it, names only this origin's assets
// and carries a CSP that allows no other origin. Browsers opening /graphql are sent there.
import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestApp, type TestApp } from "../testing/test-app.ts";

const root = path.resolve(import.meta.dirname, "../../../..");

/** Builds the web app (GraphiQL included) into a folder of its own. */
async function buildWebApp(): Promise<string> {
  const outDir = mkdtempSync(path.join(tmpdir(), "hyperlens-web-graphiql-"));
  const vite = path.join(root, "node_modules/vite/bin/vite.js");
  await promisify(execFile)(
    process.execPath,
    [vite, "build", "--outDir", outDir, "--emptyOutDir", "--logLevel", "error"],
    { cwd: path.join(root, "apps/web") },
  );
  return outDir;
}

/** Every address the page's tags name in src= or href=. */
function addressesIn(html: string): string[] {
  return [...html.matchAll(/\b(?:src|href)\s*=\s*["']?([^"'\s>]+)/gi)].map(
    (match) => match[1] ?? "",
  );
}

let app: TestApp;
const webDirBefore = process.env.HYPERLENS_WEB_DIR;
beforeAll(async () => {
  process.env.HYPERLENS_WEB_DIR = await buildWebApp();
  app = await startTestApp({ isProduction: true });
}, 180_000);
afterAll(async () => {
  await app?.close();
  if (webDirBefore === undefined) delete process.env.HYPERLENS_WEB_DIR;
  else process.env.HYPERLENS_WEB_DIR = webDirBefore;
});

describe("GraphiQL (docs/behaviour.md §11.3)", () => {
  it("is a page whose scripts and styles all come from this origin", async () => {
    const res = await fetch(`${app.url}/graphiql/`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toMatch(/<title>Hyperlens GraphiQL<\/title>/);
    const addresses = addressesIn(html);
    expect(addresses.length).toBeGreaterThan(0);
    expect(addresses.filter((address) => !/^\/(?!\/)/.test(address))).toEqual([]);
    expect(html).not.toMatch(/https?:\/\//);
    for (const address of addresses) {
      const asset = await fetch(`${app.url}${address}`);
      expect(asset.status, address).toBe(200);
      expect(asset.headers.get("content-type"), address).toMatch(/^text\/(javascript|css)/);
    }
  });

  it("carries a Content-Security-Policy that names no other origin", async () => {
    const res = await fetch(`${app.url}/graphiql`);
    const header = res.headers.get("content-security-policy") ?? "";
    const sources = header
      .split(";")
      .flatMap((directive) => directive.trim().split(/\s+/).slice(1))
      .filter((source) => source !== "");
    expect(header).toMatch(/default-src 'self'/);
    expect(header).toMatch(/connect-src 'self'/);
    // Only keywords and data: images; no host, scheme wildcard or blob: a worker could load from.
    expect(sources.filter((source) => !/^'[a-z-]+'$|^data:$/.test(source))).toEqual([]);
  });

  it("is where a browser opening /graphql is sent, in production too", async () => {
    const res = await fetch(`${app.url}/graphql`, {
      headers: { accept: "text/html" },
      redirect: "manual",
    });
    expect(res.status).toBe(302);
    expect(res.headers.get("location")).toBe("/graphiql/");
  });

  it("leaves /graphql to GraphQL requests", async () => {
    const res = await app.graphql("{ isSetupRequired }");
    expect(res.body.errors).toBeUndefined();
  });
});

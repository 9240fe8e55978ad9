// The web app's pages carry a Content-Security-Policy that leaves an injected tag nowhere to go.
import { mkdtempSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createStaticHandler } from "./static-files.ts";

let url: string;
let server: ReturnType<typeof createServer>;
beforeAll(async () => {
  const webDir = mkdtempSync(path.join(tmpdir(), "hyperlens-web-"));
  writeFileSync(path.join(webDir, "index.html"), "<!doctype html><title>Hyperlens</title>");
  const serve = createStaticHandler(webDir);
  if (!serve) throw new Error("no handler for a folder with index.html");
  server = createServer(serve);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server?.close(() => resolve())));

/** The page's CSP as a map of directive to its value. */
async function policyOf(pagePath: string): Promise<Map<string, string>> {
  const res = await fetch(`${url}${pagePath}`);
  const header = res.headers.get("content-security-policy") ?? "";
  return new Map(
    header
      .split(";")
      .map((directive) => directive.trim().split(/\s+/))
      .map(([name = "", ...values]) => [name, values.join(" ")]),
  );
}

describe("the web app's Content-Security-Policy", () => {
  it.each(["/", "/settings/connections"])(
    "%s allows no <base> and forms to this origin only",
    async (page) => {
      const policy = await policyOf(page);
      // An injected <base href> would re-point every relative script and link.
      expect(policy.get("base-uri")).toBe("'none'");
      // An injected <form action> would post what a user types to another site.
      expect(policy.get("form-action")).toBe("'self'");
      expect(policy.get("default-src")).toBe("'self'");
      expect(policy.get("frame-ancestors")).toBe("'none'");
    },
  );
});

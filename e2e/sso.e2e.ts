// Single sign-on in Debian's Chromium: the sign-in page's "Sign in with …" button, the OpenID
// provider's OWN login and consent pages (oidc-provider on loopback), and back into Hyperlens
// signed in with the groups the provider reported. Run: node e2e/run.mjs.
import assert from "node:assert/strict";
import { createServer } from "node:net";
import { after, before, describe, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import {
  type OidcTestProvider,
  startOidcTestProvider,
} from "../apps/api/src/testing/oidc-provider.ts";
import { hasAxe, seriousViolations } from "./accessibility.ts";
import { launchChromium } from "./browser.ts";
import { completeSetup, type RunningApi, startApi } from "./start-api.ts";

let api: RunningApi;
let provider: OidcTestProvider;
let browser: Browser;
let page: Page;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

describe("single sign-on in the browser", { timeout: 180_000 }, () => {
  before(async () => {
    const port = await freePort();
    const publicUrl = `http://localhost:${port}`;
    provider = await startOidcTestProvider({
      redirectUris: [`${publicUrl}/auth/oidc/test-idp/callback`],
      users: { alice: { preferredUsername: "alice", groups: ["hyperlens-viewers"] } },
    });
    api = await startApi({
      port,
      env: {
        HYPERLENS_PUBLIC_URL: publicUrl,
        HYPERLENS_IDENTITY_PROVIDERS: JSON.stringify([
          {
            slug: "test-idp",
            kind: "OIDC",
            displayName: "Test IdP",
            logoText: "T",
            createJustInTime: true,
            settings: {
              issuer: provider.issuer,
              clientId: provider.clientId,
              scopes: "openid profile groups",
            },
            secret: provider.clientSecret,
            groupMappings: [{ group: "hyperlens-viewers", capabilities: ["VIEW_INVENTORY"] }],
          },
        ]),
      },
    });
    await completeSetup(api);
    browser = await launchChromium();
    const context = await browser.newContext({ locale: "en-US" });
    context.setDefaultTimeout(20_000);
    page = await context.newPage();
  });

  after(async () => {
    await browser?.close();
    await api?.stop();
    await provider?.close();
  });

  test("signs in through the provider's own login and consent pages", async () => {
    await page.goto(`${api.url}/`);
    const button = page.getByRole("link", { name: "Sign in with Test IdP" });
    await button.waitFor();
    assert.equal(await button.getAttribute("href"), "/auth/oidc/test-idp/start");
    if (hasAxe) assert.deepEqual(await seriousViolations(page), [], "sign-in page with providers");
    await button.click();

    // oidc-provider's own pages, on its own origin.
    await page.waitForURL((url) => url.origin === provider.issuer);
    await page.locator('input[name="login"]').fill("alice");
    await page.locator('input[name="password"]').fill("anything");
    await page.getByRole("button", { name: "Sign-in" }).click();
    await page.getByRole("button", { name: "Continue" }).click();

    await page.waitForURL((url) => url.origin === api.url);
    await page.getByText("Signed in as alice").waitFor();
    const viewer = await page.evaluate(async () => {
      const response = await fetch("/graphql", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: "{ viewer { username capabilities } }" }),
      });
      return (await response.json()).data.viewer;
    });
    assert.deepEqual(viewer, { username: "alice", capabilities: ["VIEW_INVENTORY"] });
  });

  test("administrators manage providers on the Users page; password sign-in folds away when off", async () => {
    await page.context().clearCookies();
    await page.goto(`${api.url}/`);
    await page.getByLabel("User name").fill("admin");
    await page.getByLabel("Password").fill("correct horse battery staple");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByText("Signed in as admin").waitFor();
    await page.goto(`${api.url}/users`);
    const section = page.getByRole("region", { name: "Identity providers" });
    await section.getByRole("cell", { name: /Test IdP/ }).waitFor();
    await section.getByText("from the environment").waitFor();
    if (hasAxe) assert.deepEqual(await seriousViolations(page), [], "users page with providers");
    await section.getByLabel("Allow sign-in with a Hyperlens password").uncheck();
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("link", { name: "Sign in with Test IdP" }).waitFor();
    assert.equal(await page.getByLabel("Password").isVisible(), false);
    await page.getByText("Administrator sign-in with a password").click();
    await page.getByLabel("Password").waitFor();
  });

  test("a failed sign-in comes back to the sign-in page with a reason", async () => {
    await page.context().clearCookies();
    await page.goto(`${api.url}/?signInError=STATE_EXPIRED`);
    await page.getByRole("alert").filter({ hasText: "The sign-in took too long" }).waitFor();
  });
});

// GraphiQL in Debian's Chromium with every request to another origin blocked, as on a machine
// without internet: the page renders, the session cookie of the web app's sign-in carries over,
// a query answers, and the explorer plugin opens (docs/behaviour.md §11.3).
// Run: node e2e/run.mjs graphiql (npm test runs it with the others).
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { launchChromium, signIn } from "./browser.ts";
import { completeSetup, FIRST_ADMIN, type RunningApi, startApi } from "./start-api.ts";

let api: RunningApi;
let browser: Browser;
let page: Page;
/** Every request the page tried to send to another origin, blocked. */
const blocked: string[] = [];
/** Uncaught errors and console errors: a load the CSP refused never reaches the route above. */
const pageErrors: string[] = [];

describe("GraphiQL offline", { timeout: 180_000 }, () => {
  before(async () => {
    api = await startApi();
    await completeSetup(api);
    browser = await launchChromium();
    const context = await browser.newContext({
      locale: "en-US",
      viewport: { width: 1440, height: 900 },
    });
    context.setDefaultTimeout(30_000);
    const appOrigin = new URL(api.url).origin;
    await context.route("**/*", (route) => {
      const url = route.request().url();
      if (new URL(url).origin === appOrigin) return route.continue();
      blocked.push(url);
      return route.abort("internetdisconnected");
    });
    page = await context.newPage();
    page.on("pageerror", (error) => pageErrors.push(error.message));
    page.on("console", (message) => {
      if (message.type() === "error") pageErrors.push(message.text());
    });
  });
  after(async () => {
    await page?.screenshot({ path: "e2e/artifacts/graphiql-last.png" });
    await browser?.close();
    await api?.stop();
  });

  test("renders from the app alone, runs a query with the session and opens the explorer", async () => {
    await signIn(page, api.url, FIRST_ADMIN.username, FIRST_ADMIN.password);
    await page.getByRole("navigation").waitFor();
    // A browser opening the endpoint is sent to GraphiQL.
    await page.goto(`${api.url}/graphql`);
    assert.equal(new URL(page.url()).pathname, "/graphiql/");
    // The editor (Monaco) fills in the starting query after the page renders; run it only then.
    await page.locator(".graphiql-query-editor").getByText("username").waitFor();
    await page.getByRole("button", { name: /Execute query/ }).click();
    await page.locator(".graphiql-response").getByText(`"${FIRST_ADMIN.username}"`).waitFor();
    await page.getByRole("button", { name: "Show GraphiQL Explorer" }).click();
    await page.screenshot({ path: "e2e/artifacts/graphiql-offline.png" });
    const explorer = page.locator(".graphiql-plugin");
    await explorer.getByText("Explorer", { exact: true }).waitFor();
    await explorer.getByText("virtualMachines", { exact: true }).waitFor();
    assert.deepEqual(blocked, [], "requests to another origin");
    assert.deepEqual(pageErrors, [], "errors in the page");
  });
});

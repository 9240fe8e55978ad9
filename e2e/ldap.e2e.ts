// Directory sign-in in Debian's Chromium: the sign-in form's "Sign in with" choice, a real slapd
// (apps/api/src/testing/slapd.ts) checking the password, and the directory's groups mapped to
// capabilities. Run: node e2e/run.mjs.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { startTestDirectory, type TestDirectory } from "../apps/api/src/testing/slapd.ts";
import { hasAxe, seriousViolations } from "./accessibility.ts";
import { launchChromium } from "./browser.ts";
import { completeSetup, type RunningApi, startApi } from "./start-api.ts";

let api: RunningApi;
let directory: TestDirectory;
let browser: Browser;
let page: Page;

describe("directory sign-in in the browser", { timeout: 180_000 }, () => {
  before(async () => {
    directory = await startTestDirectory({
      people: [{ uid: "dora", password: "dora-directory-password" }],
      groups: [{ cn: "hyperlens-viewers", members: ["dora"] }],
    });
    api = await startApi({
      env: {
        HYPERLENS_IDENTITY_PROVIDERS: JSON.stringify([
          {
            slug: "corp",
            kind: "LDAP",
            displayName: "Corp directory",
            createJustInTime: true,
            settings: {
              url: directory.ldapUrl,
              caPem: directory.caPem,
              bindDn: directory.serviceDn,
              userBaseDn: directory.peopleDn,
            },
            secret: directory.servicePassword,
            groupMappings: [
              { group: directory.groupDn("hyperlens-viewers"), capabilities: ["VIEW_INVENTORY"] },
            ],
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
    await directory?.close();
  });

  test("a wrong directory password is refused like a local one; the right one signs in with the mapped groups", async () => {
    await page.goto(`${api.url}/`);
    const choice = page.getByLabel("Sign in with");
    await choice.waitFor();
    assert.deepEqual(await choice.locator("option").allTextContents(), [
      "Local account",
      "Corp directory",
    ]);
    if (hasAxe)
      assert.deepEqual(await seriousViolations(page), [], "sign-in page with a directory");
    await choice.selectOption({ label: "Corp directory" });
    await page.getByLabel("User name").fill("dora");
    await page.getByLabel("Password").fill("not her password");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page
      .getByRole("alert")
      .filter({ hasText: "The user name or password is not correct." })
      .waitFor();

    await page.getByLabel("Password").fill("dora-directory-password");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByText("Signed in as dora").waitFor();
    const viewer = await page.evaluate(async () => {
      const response = await fetch("/graphql", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: "{ viewer { username capabilities } }" }),
      });
      return (await response.json()).data.viewer;
    });
    assert.deepEqual(viewer, { username: "dora", capabilities: ["VIEW_INVENTORY"] });
  });

  test("the local account is still the default choice", async () => {
    await page.context().clearCookies();
    await page.goto(`${api.url}/`);
    await page.getByLabel("Sign in with").waitFor();
    await page.getByLabel("User name").fill("admin");
    await page.getByLabel("Password").fill("correct horse battery staple");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await page.getByText("Signed in as admin").waitFor();
  });
});

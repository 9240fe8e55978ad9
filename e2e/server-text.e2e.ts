// Server text in the viewer's language, in Debian's Chromium against the demo stand-ins
// (docs/behaviour.md §9.52): the demo Proxmox cluster's offline node pve4 (a skip reason in the
// connection's last sync), a connection Test result and why a rules preview would drop an address
// (web-01's 10.10.0.11 on ens18), our frame around a refused login (a connection with a wrong
// secret) and vCenter's advice after one (a wrong password), each shown in German, Japanese and Arabic from the code and parameters the server
// sends. Run: node e2e/run.mjs server-text.
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import { DEFAULT_TOKEN } from "@hyperlens/standins/testing";
import type { Browser, Page } from "playwright-core";
import { formatMessage } from "../apps/web/src/i18n/message-format.ts";
import { launchChromium, pageGraphql, signIn } from "./browser.ts";
import { completeSetup, FIRST_ADMIN, type RunningApi, startApi } from "./start-api.ts";

type Catalog = {
  nav: { settings: string };
  settings: { test: string };
  addressRules: { title: string; ignoredSubnets: string; preview: string; previewTable: string };
  serverText: Record<string, string>;
};
const catalog = (locale: string): Catalog =>
  JSON.parse(readFileSync(new URL(`../locales/${locale}.json`, import.meta.url), "utf8"));

const PROXMOX = "Demo Proxmox cluster";
const WRONG_SECRET = "Wrong secret";
const WRONG_PASSWORD = "Wrong vCenter password";

let api: RunningApi;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

const graphql = <T>(query: string, variables: Record<string, unknown> = {}) =>
  pageGraphql<T>(page, query, variables);

/** A copy of a demo connection of `kind` with a secret its stand-in refuses, saved as `name`. */
async function saveWrongSecretCopy(
  kind: "PROXMOX" | "VCENTER",
  name: string,
  login: Record<string, string | undefined>,
) {
  const { connections } = await graphql<{
    connections: { kind: string; url: string; caPem: string; username: string }[];
  }>("{ connections { kind url caPem username } }");
  const demo = connections.find((c) => c.kind === kind);
  assert.ok(demo, `the demo ${kind} connection exists`);
  const type = kind === "PROXMOX" ? "Proxmox" : "Vcenter";
  const saved = await graphql<Record<string, { data?: { id: string }; message?: string }>>(
    `mutation($input: ${type}ConnectionInput!) { saved: save${type}Connection(input: $input) {
      ... on MutationSave${type}ConnectionSuccess { data { id } }
      ... on ValidationError { message } } }`,
    {
      input: {
        name,
        url: demo.url,
        caPem: demo.caPem,
        username: demo.username,
        ...login,
        secret: "not-the-secret",
      },
    },
  );
  assert.ok(saved.saved?.data, `${name} saved: ${saved.saved?.message}`);
}

async function useLanguage(locale: string) {
  await page.evaluate((tag) => localStorage.setItem("hyperlens.language", tag), locale);
}

describe("server text in the viewer's language", { timeout: 300_000 }, () => {
  before(async () => {
    api = await startApi();
    await completeSetup(api);
    browser = await launchChromium();
    const context = await browser.newContext({
      locale: "en-US",
      viewport: { width: 1440, height: 900 },
    });
    context.setDefaultTimeout(20_000);
    page = await context.newPage();
    page.on("pageerror", (error) => pageErrors.push(error.message));
    await signIn(page, api.url, FIRST_ADMIN.username, FIRST_ADMIN.password);
    await page.getByText(`Signed in as ${FIRST_ADMIN.username}`).waitFor();
    await page.goto(`${api.url}/servers`);
    await page.getByRole("button", { name: "Sync", exact: true }).click();
    await page
      .getByRole("region", { name: "Sync progress" })
      .locator(`[data-connection="${PROXMOX}"]`)
      .getByText("Finished")
      .waitFor({ timeout: 60_000 });
    const [username, tokenId] = DEFAULT_TOKEN.id.split("!");
    await saveWrongSecretCopy("PROXMOX", WRONG_SECRET, { username, tokenId });
    await saveWrongSecretCopy("VCENTER", WRONG_PASSWORD, {});
  });

  after(async () => {
    await browser?.close();
    await api?.stop();
  });

  for (const locale of ["de", "ja", "ar"]) {
    const words = catalog(locale);
    const say = (code: string, values: Record<string, string | number>) =>
      formatMessage(locale, words.serverText[code] ?? "", values);

    // docs/behaviour.md §9.52
    test(`${locale}: the skip reason and the Test result on the connection's card`, async () => {
      await useLanguage(locale);
      await page.goto(`${api.url}/settings`);
      const card = page.getByRole("article", { name: PROXMOX });
      const offline = say("nodeNotOnline", { node: "pve4", status: "offline" });
      const skipped = say("syncListSkipped", {
        list: "pve4/qemu",
        status: "node_offline",
        reason: offline,
      });
      await card.getByText(skipped, { exact: false }).waitFor();
      assert.notEqual(skipped, "Skipped pve4/qemu (node offline: node pve4 is offline).");

      await card.getByRole("button", { name: words.settings.test, exact: true }).click();
      const outcome = card.getByRole("status");
      await outcome.waitFor();
      const connected = say("connectionTestProxmox", { version: "9.1", nodes: 4, online: 3 });
      // The stand-in's full version follows "9.1"; the rest of the sentence is the locale's.
      const [head = "", tail = ""] = connected.split("9.1");
      const text = (await outcome.textContent()) ?? "";
      assert.ok(text.includes(head) && text.includes(tail), `${text} says ${connected}`);
      assert.ok(!text.includes("Connected:"), text);
    });

    // docs/behaviour.md §9.52
    test(`${locale}: a refused login's frame, the server's words inside it`, async () => {
      await useLanguage(locale);
      await page.goto(`${api.url}/settings`);
      const card = page.getByRole("article", { name: WRONG_SECRET });
      await card.getByRole("button", { name: words.settings.test, exact: true }).click();
      const outcome = card.getByRole("status");
      await outcome.waitFor();
      const [head = ""] = say("hyperLoginRefused", { source: "Proxmox", http: "\u0000" }).split(
        "\u0000",
      );
      const text = (await outcome.textContent()) ?? "";
      assert.ok(text.includes(head), `${text} says ${head}`);
      assert.ok(text.includes("HTTP 401"), text);
      assert.ok(!text.includes("did not accept the login"), text);
    });

    // docs/behaviour.md §9.52, §11.4
    test(`${locale}: a connector's advice after a refused login`, async () => {
      await useLanguage(locale);
      await page.goto(`${api.url}/settings/vcenter`);
      const card = page.getByRole("article", { name: WRONG_PASSWORD });
      await card.getByRole("button", { name: words.settings.test, exact: true }).click();
      const outcome = card.getByRole("status");
      await outcome.waitFor();
      const hint = say("vcenterLoginHint", {});
      const text = (await outcome.textContent()) ?? "";
      assert.ok(text.includes(hint), `${text} says ${hint}`);
      assert.ok(!text.includes("user names include the identity source"), text);
    });

    // docs/behaviour.md §9.52
    test(`${locale}: why a rules preview would drop an address`, async () => {
      await useLanguage(locale);
      await page.goto(`${api.url}/settings/address-rules`);
      const form = page.getByRole("form", { name: words.addressRules.title, exact: true });
      await form
        .getByLabel(words.addressRules.ignoredSubnets, { exact: true })
        .fill("10.10.0.0/24");
      await form.getByRole("button", { name: words.addressRules.preview, exact: true }).click();
      const table = page.getByRole("table", { name: words.addressRules.previewTable });
      const why = say("addressIgnoredSubnet", { label: "ens18", subnet: "10.10.0.0/24" });
      assert.ok(!why.startsWith("ens18: in ignored subnet"), why);
      await table.locator(`[title="${why}"]`).first().waitFor();
    });
  }

  test("no page errors", () => {
    assert.deepEqual(pageErrors, []);
  });
});

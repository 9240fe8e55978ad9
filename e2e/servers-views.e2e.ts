// The Servers page's saved views, guest links and keyboard in Debian's Chromium, against the demo
// stand-ins: a view saved from the Views menu opens from its address in a fresh page; a guest's
// drawer is a link (`vm=`) that opens it even when the table does not list it, and Back closes
// it; and every keyboard path: Tab kept inside the drawer, focus given back, Escape for menus and
// the drawer, `/` for search, arrows/Home/End/Enter over rows, the whole header cell sorting, focus
// kept on Sync (docs/behaviour.md §9.47, §9.48, §9.49). Run: node e2e/run.mjs servers-views
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { launchChromium, signIn as signInAt, syncDemoConnections } from "./browser.ts";
import { completeSetup, FIRST_ADMIN, type RunningApi, startApi } from "./start-api.ts";

let api: RunningApi;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

async function signedInPage(): Promise<Page> {
  const context = await browser.newContext({
    locale: "en-US",
    viewport: { width: 1440, height: 900 },
  });
  context.setDefaultTimeout(20_000);
  const fresh = await context.newPage();
  fresh.on("pageerror", (error) => pageErrors.push(error.message));
  await signInAt(fresh, api.url, FIRST_ADMIN.username, FIRST_ADMIN.password);
  await fresh.getByText(`Signed in as ${FIRST_ADMIN.username}`).waitFor();
  return fresh;
}

const table = (p: Page) => p.getByRole("table", { name: "Virtual machines and containers" });
const search = (p: Page) => p.getByRole("searchbox", { name: "Search by name, IP or ID" });
const bodyRows = (p: Page) => table(p).locator("tbody tr");
/** What has the keyboard focus: its tag, a row's key, and the text of a button or summary. */
const focused = (p: Page) =>
  p.evaluate(() => {
    const element = document.activeElement;
    return {
      tag: element?.tagName.toLowerCase() ?? "",
      rowKey: element?.getAttribute("data-row-key") ?? null,
      text: element?.textContent?.trim() ?? "",
      inDialog: !!element?.closest('[role="dialog"]'),
    };
  });

/** The global id of a row of `type` that does not exist, ready for an address. */
const globalId = (type: string) =>
  encodeURIComponent(
    Buffer.from(`${type}:00000000-0000-4000-8000-000000000000`).toString("base64"),
  );

async function openServers(p: Page, query = "") {
  await p.goto(`${api.url}/servers${query}`);
  await bodyRows(p).first().waitFor();
}

describe("saved views, guest links and the keyboard on the Servers page", {
  timeout: 300_000,
}, () => {
  before(async () => {
    api = await startApi();
    await completeSetup(api);
    browser = await launchChromium();
    page = await signedInPage();
    await syncDemoConnections(page, api.url);
  });

  after(async () => {
    await browser?.close();
    await api?.stop();
    assert.deepEqual(pageErrors, []);
  });

  // docs/behaviour.md §9.47
  test("a saved view keeps the search and sort, and a fresh page opens it from its address", async () => {
    await openServers(page, "?q=db&sort=CPU&dir=DESC");
    const menu = page.locator("details.views-menu");
    await menu.locator("summary").click();
    const saveForm = page.getByRole("form", { name: "Save the current view" });
    await saveForm.getByLabel("View name").fill("Databases by CPU");
    await saveForm.getByRole("button", { name: "Save view" }).click();
    const link = page.getByRole("list", { name: "Saved views" }).getByRole("link", {
      name: "Databases by CPU",
    });
    await link.waitFor();
    assert.equal(await link.getAttribute("href"), "/servers?q=db&sort=CPU&dir=DESC");

    // The same name again is refused beside the name field.
    await saveForm.getByLabel("View name").fill("databases BY cpu");
    await saveForm.getByRole("button", { name: "Save view" }).click();
    await saveForm.getByText("You already have a view named databases BY cpu.").waitFor();
    assert.equal(await saveForm.getByLabel("View name").getAttribute("aria-invalid"), "true");

    // Its address, in a page of its own, shows the view.
    const fresh = await signedInPage();
    await openServers(fresh, "?q=db&sort=CPU&dir=DESC");
    assert.equal(await search(fresh).inputValue(), "db");
    const cpu = table(fresh).getByRole("columnheader", { name: /vCPU/ });
    assert.equal(await cpu.getAttribute("aria-sort"), "descending");

    // `view=<id>` takes its owner to the view's own address.
    const id = await page.evaluate(async () => {
      const res = await fetch("/graphql", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: "{ savedViews { id name } }" }),
      });
      const body = (await res.json()) as { data: { savedViews: { id: string; name: string }[] } };
      return body.data.savedViews.find((v) => v.name === "Databases by CPU")?.id ?? "";
    });
    await fresh.goto(`${api.url}/servers?view=${encodeURIComponent(id)}`);
    await fresh.waitForURL(/\/servers\?q=db&sort=CPU&dir=DESC$/);
    assert.equal(await search(fresh).inputValue(), "db");
    await fresh.goto(`${api.url}/servers?view=${globalId("SavedView")}`);
    await fresh.getByText("This saved view does not exist, or it is not yours.").waitFor();
    await fresh.context().close();

    // Renamed in place, then deleted.
    await openServers(page);
    await menu.locator("summary").click();
    await page.getByRole("button", { name: "Rename view Databases by CPU" }).click();
    const renameForm = page.getByRole("form", { name: "Rename view Databases by CPU" });
    await renameForm.getByLabel("View name").fill("DB heavy");
    await renameForm.getByRole("button", { name: "Rename" }).click();
    const item = page.getByRole("list", { name: "Saved views" }).getByRole("listitem");
    await item.getByRole("link", { name: "DB heavy" }).waitFor();
    await item.getByRole("button", { name: "Delete" }).click();
    await item.getByRole("button", { name: "Yes, delete" }).click();
    await page.getByText("No saved views yet.").waitFor();
    await page.keyboard.press("Escape");
  });

  // docs/behaviour.md §9.48
  test("a guest's drawer is a link: it opens the guest when the table does not list it, and Back closes it", async () => {
    // The demo vCenter's db-01, by its MoRef (other sources have a db-01 too).
    await openServers(page, "?q=vm-1051");
    await table(page).getByRole("button", { name: /db-01/ }).click();
    await page.getByRole("dialog", { name: "db-01" }).getByText("Network interfaces").waitFor();
    const opened = new URL(page.url());
    const id = opened.searchParams.get("vm") ?? "";
    assert.ok(id, "the address names the guest");
    assert.equal(opened.searchParams.get("q"), "vm-1051", "the table's parameters stay");

    await page.goBack();
    await page.getByRole("dialog").waitFor({ state: "detached" });
    assert.equal(new URL(page.url()).searchParams.get("vm"), null);

    // A search that lists nothing: the guest is loaded by its id, not found among the rows.
    const fresh = await signedInPage();
    await fresh.goto(`${api.url}/servers?q=no-such-guest&vm=${encodeURIComponent(id)}`);
    const drawer = fresh.getByRole("dialog", { name: "db-01" });
    await drawer.getByText("Network interfaces").waitFor();
    await drawer.getByRole("button", { name: "Close" }).first().click();
    await drawer.waitFor({ state: "detached" });
    assert.equal(new URL(fresh.url()).search, "?q=no-such-guest");
    assert.equal(await search(fresh).inputValue(), "no-such-guest");

    // No such guest and a malformed id read alike.
    for (const missing of [globalId("ProxmoxGuest"), "junk"]) {
      await fresh.goto(`${api.url}/servers?vm=${missing}`);
      const notFound = fresh.getByRole("dialog", { name: "Guest not found" });
      await notFound.getByText("No guest with this link exists, or you may not see it.").waitFor();
    }
    await fresh.context().close();
  });

  // docs/behaviour.md §9.49
  test("arrows, Home and End move between rows, and Enter opens the drawer, which keeps Tab inside and gives focus back", async () => {
    await openServers(page);
    await table(page).locator("tbody tr").first().focus();
    const first = await focused(page);
    assert.equal(first.tag, "tr");
    await page.keyboard.press("ArrowDown");
    const second = await focused(page);
    assert.equal(second.tag, "tr");
    assert.notEqual(second.rowKey, first.rowKey);
    await page.keyboard.press("ArrowUp");
    assert.equal((await focused(page)).rowKey, first.rowKey);
    await page.keyboard.press("End");
    await page.waitForFunction(
      (key) => document.activeElement?.getAttribute("data-row-key") !== key,
      first.rowKey,
    );
    await page.keyboard.press("Home");
    await page.waitForFunction(
      (key) => document.activeElement?.getAttribute("data-row-key") === key,
      first.rowKey,
    );
    // One Tab stop: the focused row is the one with tabindex 0.
    assert.equal(await table(page).locator('tbody tr[tabindex="0"]').count(), 1);

    await page.keyboard.press("ArrowDown");
    await page.keyboard.press("Enter");
    const drawer = page.getByRole("dialog");
    await drawer.getByText("Network interfaces").waitFor();
    for (let i = 0; i < 40; i++) {
      await page.keyboard.press("Tab");
      assert.ok((await focused(page)).inDialog, `Tab ${i + 1} stayed in the drawer`);
    }
    for (let i = 0; i < 5; i++) {
      await page.keyboard.press("Shift+Tab");
      assert.ok((await focused(page)).inDialog, `Shift+Tab ${i + 1} stayed in the drawer`);
    }
    await page.keyboard.press("Escape");
    await drawer.waitFor({ state: "detached" });
    assert.equal((await focused(page)).rowKey, second.rowKey, "focus is back on the row");
  });

  // docs/behaviour.md §9.49
  test("Escape closes a menu before the drawer, and `/` focuses search except while typing", async () => {
    await openServers(page);
    const columns = page.locator("details.menu").filter({ hasText: "Columns" });
    await columns.locator("summary").click();
    assert.equal(await columns.getAttribute("open"), "");
    await page.keyboard.press("Escape");
    assert.equal(await columns.getAttribute("open"), null);
    assert.equal((await focused(page)).tag, "summary");

    await page.locator("h1").click();
    await page.keyboard.press("/");
    assert.equal((await focused(page)).tag, "input");
    await page.keyboard.type("db/");
    assert.equal(await search(page).inputValue(), "db/", "a / typed in the field stays text");
  });

  // docs/behaviour.md §9.49
  test("the whole header cell sorts, and after Sync the focus stays on the Sync button", async () => {
    await openServers(page);
    const header = table(page).getByRole("columnheader", { name: /vCPU/ });
    const box = await header.boundingBox();
    assert.ok(box);
    // The cell's far edge, away from the label's text.
    await page.mouse.click(box.x + box.width - 3, box.y + box.height - 3);
    await page.waitForURL(/sort=CPU/);
    assert.equal(await header.getAttribute("aria-sort"), "ascending");

    const sync = page.getByRole("button", { name: "Sync", exact: true });
    await sync.evaluate((button) => button.setAttribute("data-e2e", "sync-all"));
    await sync.focus();
    await page.keyboard.press("Enter");
    await page.locator('[data-e2e="sync-all"]', { hasText: "Syncing…" }).waitFor();
    const focusedSync = () =>
      page.evaluate(() => document.activeElement?.getAttribute("data-e2e") ?? "");
    assert.equal(await focusedSync(), "sync-all", "focus stayed on the Sync button while it runs");
    await page.locator('[data-e2e="sync-all"]', { hasText: /^Sync$/ }).waitFor({ timeout: 60_000 });
    assert.equal(await focusedSync(), "sync-all", "and once it has finished");
  });
});

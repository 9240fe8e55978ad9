// The Servers table's layout in Debian's Chromium against the demo stand-ins at 1440×900: grouped
// by tag and by node with counts the API agrees with, groups opened and closed, a column resized
// by keyboard and by pointer and moved by the Columns menu and by a header drag (kept in the URL),
// dense rows remembered, and at least 20 guests in view with the figures on one line
// (docs/behaviour.md §9.45, §9.46). Run: node e2e/run.mjs grouping
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Browser, Locator, Page } from "playwright-core";
import { hasAxe } from "./accessibility.ts";
import { expectAccessible, launchChromium, signIn, syncDemoConnections } from "./browser.ts";
import { completeSetup, FIRST_ADMIN, type RunningApi, startApi } from "./start-api.ts";

let api: RunningApi;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

const table = () => page.getByRole("table", { name: "Virtual machines and containers" });
const groupButton = (name: RegExp) => table().getByRole("button", { name });
const headers = async () =>
  (await table().locator("thead th").allTextContents()).map((text) =>
    text.replace(/[▲▼]/g, "").trim(),
  );

/** The API's groups for `by`, templates left out as the page leaves them out. */
async function apiGroups(by: string): Promise<{ key: string | null; count: number }[]> {
  return page.evaluate(async (groupBy) => {
    const response = await fetch("/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        query: `query($by: VirtualMachineGroupBy!) { virtualMachineGroups(by: $by, filter: { isTemplate: false }) { key count } }`,
        variables: { by: groupBy },
      }),
    });
    return (await response.json()).data.virtualMachineGroups;
  }, by);
}

/** Rows of the table wholly inside the scrolling area and the window. */
async function rowsInView(): Promise<number> {
  return table().evaluate((element) => {
    const scroller = element.closest(".vm-scroller")?.getBoundingClientRect();
    const head = element.querySelector("thead")?.getBoundingClientRect();
    if (!scroller || !head) return 0;
    const top = head.bottom;
    const bottom = Math.min(scroller.bottom, window.innerHeight);
    return [...element.querySelectorAll("tbody tr")].filter((row) => {
      const box = row.getBoundingClientRect();
      return box.top >= top - 1 && box.bottom <= bottom + 1;
    }).length;
  });
}

const widthOf = async (locator: Locator) => (await locator.boundingBox())?.width ?? 0;

describe("grouping and the table's layout", { timeout: 300_000 }, () => {
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
    if (!hasAxe) console.log("# axe-core is not installed: the accessibility checks are skipped.");
    await signIn(page, api.url, FIRST_ADMIN.username, FIRST_ADMIN.password);
    await page.getByText(`Signed in as ${FIRST_ADMIN.username}`).waitFor();
    await syncDemoConnections(page, api.url);
  });

  after(async () => {
    await browser?.close();
    await api?.stop();
  });

  // docs/behaviour.md §9.46
  test("at 1440×900 the figures take one line and at least 20 guests show", async () => {
    await page.goto(`${api.url}/servers`);
    await table().locator("tbody tr").first().waitFor();
    const figures = page.getByRole("region", { name: "Summary" });
    const line = figures.locator(".figures-line").first();
    await line.getByText("VMs").waitFor();
    const box = await line.boundingBox();
    assert.ok(box && box.height < 30, `the figures are on one line (${box?.height} px high)`);
    const shown = await rowsInView();
    assert.ok(shown >= 20, `${shown} rows in view at 1440×900`);

    // Unfolded, the per-source table comes back; the choice is remembered.
    await figures.getByRole("button", { name: "Per source and connection" }).click();
    await figures.locator("table.figures").waitFor();
    await page.reload();
    await page.locator("table.figures").waitFor();
    await figures.getByRole("button", { name: "Fold to one line" }).click();
    assert.equal(await page.locator("table.figures").count(), 0);
    await expectAccessible(page, "the Servers page");
  });

  // docs/behaviour.md §9.45
  test("grouped by tag: a header per tag with the API's count, opened and closed", async () => {
    await page.goto(`${api.url}/servers`);
    await page.getByLabel("Group by").selectOption("tag");
    await page.waitForURL(/[?&]group=tag/);
    const expected = await apiGroups("TAG");
    assert.ok(expected.length > 3, "the demo has several tags");
    const prod = expected.find((g) => g.key === "prod");
    assert.ok(prod);
    const prodHeader = groupButton(/^prod /);
    await prodHeader.waitFor();
    assert.equal(
      await prodHeader.textContent(),
      `▸ prod ${prod.count} guest${prod.count === 1 ? "" : "s"}`,
    );
    const untagged = expected.find((g) => g.key === null);
    assert.ok(untagged);
    await groupButton(new RegExp(`^No tag ${untagged.count} guests$`)).waitFor();
    // Every header, in the API's order, and nothing else while all are closed.
    const rows = table().locator("tbody tr");
    assert.equal(await rows.count(), expected.length);
    assert.equal(await prodHeader.getAttribute("aria-expanded"), "false");
    // A header is a real row that takes focus: the first one is the table's Tab stop (§9.49).
    assert.equal(await rows.first().getAttribute("tabindex"), "0");

    await prodHeader.click();
    await table().getByRole("button", { name: "web-01" }).waitFor();
    assert.equal(await groupButton(/^prod /).getAttribute("aria-expanded"), "true");
    assert.equal(await rows.count(), expected.length + prod.count);
    // A guest with two tags is under each: web-01 is tagged prod and web.
    await groupButton(/^web /).click();
    await page.waitForFunction(
      () =>
        [...document.querySelectorAll(".vm-table tbody button.link")].filter((b) =>
          b.textContent?.startsWith("web-01"),
        ).length === 2,
    );
    // Enter on the focused header row closes the group.
    const webRow = table()
      .locator("tbody tr.group-row")
      .filter({ hasText: /^▾ web / });
    await webRow.focus();
    await page.keyboard.press("Enter");
    await page.waitForFunction(() =>
      [
        ...document.querySelectorAll(".vm-table tr.group-row [aria-expanded=true] .group-name"),
      ].every((name) => name.textContent !== "web"),
    );
    await groupButton(/^prod /).click();
    await page.waitForFunction(
      (count) => document.querySelectorAll(".vm-table tbody tr").length === count,
      expected.length,
    );
    await expectAccessible(page, "the grouped Servers page");
  });

  // docs/behaviour.md §9.45
  test("grouped by node from the URL: each node's count, and the rows a node lists", async () => {
    await page.goto(`${api.url}/servers?group=node`);
    const expected = await apiGroups("NODE");
    for (const group of expected.filter((g) => g.key !== null)) {
      const noun = group.count === 1 ? "guest" : "guests";
      await groupButton(new RegExp(`^${group.key} ${group.count} ${noun}$`)).waitFor();
    }
    const pve1 = expected.find((g) => g.key === "pve1");
    assert.ok(pve1);
    await groupButton(/^pve1 /).click();
    await table().getByRole("button", { name: "web-01" }).waitFor();
    const pve1Rows = await table()
      .locator("tbody tr:not(.group-row)")
      .evaluateAll((rows) => rows.length);
    assert.equal(pve1Rows, pve1.count);
    assert.match((await page.getByText(/ in \d+ groups$/).textContent()) ?? "", /guests in/);
  });

  // docs/behaviour.md §9.46
  test("a column is resized by keyboard and by pointer, and keeps its width", async () => {
    await page.goto(`${api.url}/servers`);
    await table().locator("tbody tr").first().waitFor();
    const nameHeader = table().locator("thead th").first();
    const handle = table().getByRole("separator", { name: "Resize column Name" });
    const before = await widthOf(nameHeader);
    await handle.focus();
    for (let i = 0; i < 3; i++) await page.keyboard.press("ArrowRight");
    await page.waitForFunction(
      (width) =>
        (document.querySelector(".vm-table thead th")?.getBoundingClientRect().width ?? 0) >
        width + 40,
      before,
    );
    const widened = await widthOf(nameHeader);
    assert.ok(Math.abs(widened - (before + 48)) <= 2, `${before} + 48 ≈ ${widened}`);
    assert.equal(await handle.getAttribute("aria-valuenow"), String(Math.round(before + 48)));

    const box = await handle.boundingBox();
    assert.ok(box);
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.down();
    await page.mouse.move(box.x + box.width / 2 - 60, box.y + box.height / 2, { steps: 5 });
    await page.mouse.up();
    const dragged = await widthOf(nameHeader);
    assert.ok(Math.abs(dragged - (widened - 60)) <= 3, `${widened} - 60 ≈ ${dragged}`);
    // Rows follow the header.
    const cell = await widthOf(table().locator("tbody tr td").first());
    assert.ok(Math.abs(cell - dragged) <= 1, `the first cell is ${cell} px, its header ${dragged}`);

    await page.reload();
    await table().locator("tbody tr").first().waitFor();
    assert.ok(Math.abs((await widthOf(nameHeader)) - dragged) <= 1, "the width is remembered");
  });

  // docs/behaviour.md §9.46
  test("columns move by the Columns menu and by dragging a header, and the URL keeps the order", async () => {
    await page.goto(`${api.url}/servers`);
    await table().locator("tbody tr").first().waitFor();
    assert.deepEqual((await headers()).slice(0, 3), ["Name", "Source", "State"]);
    await page.locator("summary", { hasText: "Columns" }).click();
    await page.getByRole("button", { name: "Move State left" }).click();
    assert.deepEqual((await headers()).slice(0, 3), ["Name", "State", "Source"]);
    await page.waitForURL(/cols=name%2Cstate%2Csource|cols=name,state,source/);
    // Hidden, a column leaves the URL's list; the name cannot be hidden.
    await page.getByRole("checkbox", { name: "vCPU" }).uncheck();
    assert.ok(!(await headers()).includes("vCPU"));
    assert.ok(await page.getByRole("checkbox", { name: "Name" }).isDisabled());
    await page.locator("summary", { hasText: "Columns" }).click();

    await table()
      .locator("thead th")
      .filter({ hasText: "Memory" })
      .dragTo(table().locator("thead th").filter({ hasText: /^Name/ }));
    assert.deepEqual((await headers()).slice(0, 4), ["Memory", "Name", "State", "Source"]);

    // The URL alone brings the layout back, in a fresh page of the same browser.
    const url = page.url();
    assert.match(decodeURIComponent(url), /cols=memory,name,state,source,/);
    const other = await page.context().newPage();
    await other.goto(url);
    await other
      .getByRole("table", { name: "Virtual machines and containers" })
      .locator("tbody tr")
      .first()
      .waitFor();
    const otherHeaders = (await other.locator(".vm-table thead th").allTextContents()).map((text) =>
      text.replace(/[▲▼]/g, "").trim(),
    );
    assert.deepEqual(otherHeaders, await headers());
    await other.close();
  });

  // docs/behaviour.md §9.46
  test("dense rows are shorter, show more guests and are remembered", async () => {
    await page.goto(`${api.url}/servers`);
    const firstRow = table().locator("tbody tr").first();
    await firstRow.waitFor();
    const usual = (await firstRow.boundingBox())?.height ?? 0;
    const usualCount = await rowsInView();
    await page.getByRole("checkbox", { name: "Dense rows" }).check();
    await page.waitForFunction(
      (height) =>
        (document.querySelector(".vm-table tbody tr")?.getBoundingClientRect().height ?? 0) <
        height,
      usual,
    );
    assert.ok((await rowsInView()) > usualCount, "dense rows show more guests");
    await page.reload();
    await firstRow.waitFor();
    assert.ok(((await firstRow.boundingBox())?.height ?? 0) < usual, "dense is remembered");
    await page.getByRole("checkbox", { name: "Dense rows" }).uncheck();
    assert.deepEqual(pageErrors, []);
  });
});

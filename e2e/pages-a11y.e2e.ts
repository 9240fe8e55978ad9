// Every page of the app through axe-core in the light and the dark theme (docs/behaviour.md
// §9.55), and the Servers page in an Arabic page and on a phone: addresses isolated, cut values
// shown whole on hover and focus (§9.53), no sideways scroll, cards, the menu in a drawer (§9.54).
// Writes the Servers page's eight screenshots to e2e/artifacts/. Run: node e2e/run.mjs pages-a11y
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { PAGES } from "../apps/web/src/shell/router.ts";
import { seriousViolations } from "./accessibility.ts";
import { launchChromium, signIn } from "./browser.ts";
import { completeSetup, FIRST_ADMIN, type RunningApi, startApi } from "./start-api.ts";

const ARTIFACTS = path.join(import.meta.dirname, "artifacts");
const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };
const THEMES = ["light", "dark"] as const;
type Theme = (typeof THEMES)[number];
const TABLE = "Virtual machines and containers";

let api: RunningApi;
let browser: Browser;
/** The signed-in session, shared by every page opened below. */
let session: Awaited<ReturnType<BrowserContext["storageState"]>>;

/** A signed-in page of the given size, theme and language (set as the app itself saves them). */
async function openPage(
  options: { viewport?: { width: number; height: number }; theme?: Theme; language?: string } = {},
): Promise<Page> {
  const context = await browser.newContext({
    viewport: options.viewport ?? DESKTOP,
    locale: "en-US",
    storageState: {
      cookies: session.cookies,
      origins: [
        {
          origin: api.url,
          localStorage: [
            { name: "hyperlens.theme", value: options.theme ?? "light" },
            { name: "hyperlens.language", value: options.language ?? "en" },
          ],
        },
      ],
    },
  });
  context.setDefaultTimeout(20_000);
  return context.newPage();
}

/** Opens a path and waits until its heading is drawn and its queries have answered. */
async function visit(page: Page, pathname: string) {
  await page.goto(`${api.url}${pathname}`);
  await page.locator("main h1, main h2").first().waitFor();
  await page.waitForLoadState("networkidle");
  await page
    .getByText("Loading…")
    .first()
    .waitFor({ state: "detached", timeout: 10_000 })
    .catch(() => undefined);
}

/** The Servers page with its first guest drawn. */
async function visitServers(page: Page) {
  await visit(page, "/servers");
  // By class: the table's name is in the page's language.
  await page.locator(".vm-table tbody tr").first().waitFor();
}

/** Whether the element's characters are drawn left to right in the order they are written. */
async function isDrawnInOrder(page: Page, selector: string, text: string): Promise<boolean> {
  return page.evaluate(
    ([css, wanted]) => {
      const element = [...document.querySelectorAll(css)].find((e) => e.textContent === wanted);
      if (!element) throw new Error(`no ${css} reads ${wanted}`);
      const lefts: number[] = [];
      const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        for (let i = 0; i < (node.textContent ?? "").length; i++) {
          const range = document.createRange();
          range.setStart(node, i);
          range.setEnd(node, i + 1);
          lefts.push(range.getBoundingClientRect().left);
        }
      }
      return lefts.every((left, i) => i === 0 || left > (lefts[i - 1] ?? 0));
    },
    [selector, text] as const,
  );
}

describe("every page accessible, and the Servers page in Arabic and on a phone", {
  timeout: 420_000,
}, () => {
  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    api = await startApi();
    await completeSetup(api);
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: DESKTOP, locale: "en-US" });
    context.setDefaultTimeout(20_000);
    const page = await context.newPage();
    await signIn(page, api.url, FIRST_ADMIN.username, FIRST_ADMIN.password);
    await page.getByText(`Signed in as ${FIRST_ADMIN.username}`).waitFor();
    // The demo connections' guests, so the Servers page and its drawer have something to show.
    await page.goto(`${api.url}/servers`);
    await page.getByRole("button", { name: "Sync", exact: true }).click();
    await page
      .getByRole("table", { name: TABLE })
      .getByText("web-01")
      .first()
      .waitFor({ timeout: 90_000 });
    session = await context.storageState();
    await context.close();
  });

  after(async () => {
    await browser?.close();
    await api?.stop();
  });

  for (const theme of THEMES) {
    // docs/behaviour.md §9.55
    test(`every page, the drawer and the sign-in page have no serious or critical axe violations in the ${theme} theme`, async () => {
      const page = await openPage({ theme });
      const problems: string[] = [];
      const check = async (name: string) => {
        for (const line of await seriousViolations(page)) problems.push(`${name}: ${line}`);
      };
      for (const name of PAGES) {
        await visit(page, `/${name}`);
        assert.equal(
          await page.evaluate(() => document.documentElement.dataset.theme),
          theme,
          "the theme is the one chosen",
        );
        await check(`/${name}`);
      }
      // GraphiQL, where a browser opening /graphql is sent, follows the system's theme; with two
      // editor tabs it draws a close button in each.
      await page.emulateMedia({ colorScheme: theme });
      await page.goto(`${api.url}/graphql`);
      await page.locator(".graphiql-query-editor").getByText("username").waitFor();
      await check("/graphiql");
      await page.getByRole("button", { name: "New tab" }).click();
      await page.locator(".graphiql-tab-close").first().waitFor({ state: "attached" });
      await check("/graphiql with two tabs");
      // Each tab of Settings, as its tab list offers them to an administrator.
      await visit(page, "/settings");
      const tabs = page.getByRole("tablist").first().getByRole("tab");
      const tabCount = await tabs.count();
      assert.ok(tabCount >= 4, "a tab per source and the address rules");
      for (let i = 0; i < tabCount; i++) {
        await tabs.nth(i).click();
        await page.waitForLoadState("networkidle");
        await check(`${new URL(page.url()).pathname} (settings tab)`);
      }
      await visitServers(page);
      await page
        .getByRole("table", { name: TABLE })
        .getByRole("button", { name: /^web-01/ })
        .first()
        .click();
      await page.getByRole("dialog").getByRole("heading", { name: "History" }).waitFor();
      await check("/servers with the drawer open");

      const signedOut = await browser.newContext({ viewport: DESKTOP, locale: "en-US" });
      const signIn = await signedOut.newPage();
      await signIn.addInitScript((t) => localStorage.setItem("hyperlens.theme", t), theme);
      await signIn.goto(`${api.url}/`);
      await signIn.getByRole("heading", { name: "Sign in to Hyperlens" }).waitFor();
      for (const line of await seriousViolations(signIn)) problems.push(`sign-in: ${line}`);
      await signedOut.close();
      await page.context().close();
      assert.deepEqual(problems, [], `serious or critical violations in the ${theme} theme`);
    });
  }

  // docs/behaviour.md §9.53
  test("in Arabic an IPv6 address keeps its order, in the table and in the drawer", async () => {
    const page = await openPage({ language: "ar" });
    await visitServers(page);
    assert.equal(await page.evaluate(() => document.documentElement.dir), "rtl");
    const cell = page.locator('td[data-column="ips"] bdi').filter({ hasText: "2001:db8:10::11" });
    assert.equal(await cell.getAttribute("dir"), "ltr");
    assert.equal(await cell.evaluate((e) => getComputedStyle(e).direction), "ltr");
    const cellText = (await cell.textContent()) ?? "";
    assert.ok(
      await isDrawnInOrder(page, 'td[data-column="ips"] bdi', cellText),
      `${cellText} drawn left to right`,
    );

    await page
      .locator(".vm-table")
      .getByRole("button", { name: /^dc01\.corp\.example/ })
      .click();
    const drawer = page.getByRole("dialog", { name: "dc01.corp.example" });
    await drawer.getByText("::1/128").first().waitFor();
    assert.ok(await isDrawnInOrder(page, ".nic bdi", "::1/128"), "::1/128, not 1/128::");
    await page.context().close();
  });

  // docs/behaviour.md §9.46
  test("in Arabic the Columns menu's arrows and arrow keys move a column the way they point", async () => {
    const page = await openPage({ language: "ar" });
    await visitServers(page);
    const leftOf = async (header: string) =>
      (
        await page
          .locator(".vm-table thead th")
          .filter({ hasText: new RegExp(`^${header}`) })
          .boundingBox()
      )?.x ?? 0;
    const [state, source] = ["الحالة", "المصدر"];
    assert.ok((await leftOf(state)) < (await leftOf(source)), "State starts left of Source");
    await page.locator("summary", { hasText: "الأعمدة" }).click();
    const right = page.getByRole("button", { name: "نقل الحالة إلى اليمين" });
    assert.equal(await right.textContent(), "→");
    await right.click();
    await page.waitForURL(/cols=name%2Cstate%2Csource|cols=name,state,source/);
    assert.ok((await leftOf(state)) > (await leftOf(source)), "→ moved State right");
    // The arrow keys on the menu's buttons go the way they point too.
    await page.getByRole("button", { name: "نقل الحالة إلى اليسار" }).press("ArrowLeft");
    await page.waitForURL((url) => !url.searchParams.has("cols"));
    assert.ok((await leftOf(state)) < (await leftOf(source)), "ArrowLeft moved State left");
    await page.context().close();
  });

  // docs/behaviour.md §9.53
  test("a cut cell shows its full value on hover and on keyboard focus", async () => {
    // The narrowest the desktop table gets, so the IP column is at its minimum width.
    const page = await openPage({ viewport: { width: 1100, height: 900 } });
    await visitServers(page);
    const cell = page.locator('td[data-column="ips"] .cut').filter({ hasText: "2001:db8:10::11" });
    const full = (await cell.textContent()) ?? "";
    assert.ok(
      await cell.evaluate((e) => e.scrollWidth > e.clientWidth),
      "the addresses do not fit their column",
    );
    await cell.hover();
    assert.equal(await cell.getAttribute("title"), full, "the title holds the whole value");

    // Keyboard: Tab from the guest's name reaches the cut value, which then shows itself whole.
    const row = page.locator("tbody tr").filter({ has: cell });
    await row.getByRole("button", { name: /^web-01/ }).focus();
    for (let i = 0; i < 10 && !(await cell.evaluate((e) => e === document.activeElement)); i++)
      await page.keyboard.press("Tab");
    assert.ok(await cell.evaluate((e) => e === document.activeElement), "Tab reaches the value");
    const shown = await cell.evaluate((e) => {
      const box = e.getBoundingClientRect();
      const hit = document.elementFromPoint(box.left + 2, box.bottom - 4);
      return { isWhole: e.scrollWidth <= e.clientWidth, isOnTop: e.contains(hit) };
    });
    assert.deepEqual(
      shown,
      { isWhole: true, isOnTop: true },
      "the focused value is whole and on top",
    );
    await page.context().close();
  });

  // docs/behaviour.md §9.54
  test("on a phone the Servers page does not scroll sideways, shows cards and its first one without scrolling", async () => {
    const page = await openPage({ viewport: PHONE });
    await visitServers(page);
    const layout = await page.evaluate(() => {
      const row = document.querySelector(".vm-table tbody tr");
      const name = row?.querySelector('td[data-column="name"]');
      const ips = row?.querySelector('td[data-column="ips"]');
      const box = row?.getBoundingClientRect();
      return {
        scrollWidth: document.scrollingElement?.scrollWidth ?? Number.POSITIVE_INFINITY,
        innerWidth: window.innerWidth,
        rowBottom: box?.bottom ?? Number.POSITIVE_INFINITY,
        rowRight: box?.right ?? Number.POSITIVE_INFINITY,
        innerHeight: window.innerHeight,
        // A card: the name on a line of its own, the addresses below it.
        isStacked:
          (ips?.getBoundingClientRect().top ?? 0) >= (name?.getBoundingClientRect().bottom ?? 0),
      };
    });
    assert.ok(layout.scrollWidth <= layout.innerWidth, `page ${layout.scrollWidth} px wide`);
    assert.ok(layout.rowRight <= layout.innerWidth, "the card fits the screen's width");
    assert.ok(layout.rowBottom <= layout.innerHeight, `first card ends at ${layout.rowBottom} px`);
    assert.ok(layout.isStacked, "each guest is a card, not a row of columns");

    assert.deepEqual(await seriousViolations(page), [], "the phone layout passes axe");

    await page.locator(".vm-table tbody tr button.link").first().click();
    await page.getByRole("dialog").getByRole("heading", { name: "History" }).waitFor();
    assert.ok(
      await page.evaluate(() => (document.scrollingElement?.scrollWidth ?? 0) <= window.innerWidth),
      "the drawer does not scroll sideways",
    );
    await page.context().close();
  });

  // docs/behaviour.md §9.54
  test("on a phone the navigation is in a drawer behind the menu button", async () => {
    const page = await openPage({ viewport: PHONE });
    await visitServers(page);
    const menu = page.getByRole("button", { name: "Menu" });
    const settings = page.getByRole("navigation").getByRole("link", { name: "Settings" });
    assert.equal(await menu.getAttribute("aria-expanded"), "false");
    assert.equal(await settings.isVisible(), false, "the navigation is folded away");
    await menu.click();
    assert.equal(await menu.getAttribute("aria-expanded"), "true");
    await settings.waitFor();
    assert.deepEqual(await seriousViolations(page), [], "the open menu passes axe");
    await page.keyboard.press("Escape");
    await settings.waitFor({ state: "hidden" });
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), "Menu");
    await menu.click();
    await settings.click();
    await page.waitForURL(/\/settings/);
    await settings.waitFor({ state: "hidden" });
    assert.equal(await menu.getAttribute("aria-expanded"), "false", "choosing a page closes it");

    const wide = await openPage();
    await visitServers(wide);
    assert.equal(await wide.getByRole("button", { name: "Menu" }).count(), 0, "no menu button");
    await wide.getByRole("navigation").getByRole("link", { name: "Settings" }).waitFor();
    await wide.context().close();
    await page.context().close();
  });

  test("screenshots of the Servers page: wide and phone, light and dark, English and Arabic", async () => {
    for (const [size, viewport] of [
      ["desktop", DESKTOP],
      ["phone", PHONE],
    ] as const)
      for (const theme of THEMES)
        for (const language of ["en", "ar"]) {
          const page = await openPage({ viewport, theme, language });
          await visitServers(page);
          await page.screenshot({
            path: path.join(ARTIFACTS, `servers-${size}-${theme}-${language}.png`),
          });
          await page.context().close();
        }
  });
});

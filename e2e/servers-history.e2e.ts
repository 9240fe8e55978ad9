// The Servers page's history and "What changed" in Debian's Chromium (docs/behaviour.md §9.50,
// §9.51): a Proxmox stand-in of this test's own is synced, changed (two guests created, one
// deleted) and synced again; its chart then has points and says its figures in text, drawn in
// the theme's colours under the app's Content-Security-Policy, and the changes view lists the
// added and the removed guests, and (after a third sync) a changed guest's fields by their labels
// in German. GraphQL only to save and sync the connection. Run: node e2e/run.mjs history
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { after, before, describe, test } from "node:test";
import {
  createProxmoxStandin,
  DEFAULT_TOKEN,
  lxcGuest,
  type ProxmoxStandin,
  proxmoxNode,
  qemuGuest,
} from "@hyperlens/standins/testing";
import type { Browser, Page } from "playwright-core";
import { expectAccessible, launchChromium, pageGraphql, signIn } from "./browser.ts";
import { completeSetup, FIRST_ADMIN, type RunningApi, startApi } from "./start-api.ts";

let api: RunningApi;
let browser: Browser;
let page: Page;
let standin: ProxmoxStandin;
let connectionId: string;
/** An instant between the two syncs. */
let between: Date;
const pageErrors: string[] = [];

const graphql = <T>(query: string, variables: Record<string, unknown> = {}) =>
  pageGraphql<T>(page, query, variables);

const SYNC = `mutation($id: ID!) { syncConnection(id: $id, wait: true) { outcome } }`;

/** The Proxmox chart's figure on the Servers page. */
const proxmoxChart = () => page.getByRole("figure", { name: /Proxmox VE/ });

/** Whether the chart's canvas has a pixel within a few steps of `rgb`. */
function canvasHas(rgb: [number, number, number]): Promise<boolean> {
  return proxmoxChart()
    .locator("canvas")
    .evaluate((canvas: HTMLCanvasElement, [r, g, b]) => {
      const context = canvas.getContext("2d");
      if (!context) return false;
      const { data } = context.getImageData(0, 0, canvas.width, canvas.height);
      for (let i = 0; i < data.length; i += 4) {
        const near =
          Math.abs((data[i] ?? 0) - r) < 12 &&
          Math.abs((data[i + 1] ?? 0) - g) < 12 &&
          Math.abs((data[i + 2] ?? 0) - b) < 12;
        if (near && (data[i + 3] ?? 0) > 200) return true;
      }
      return false;
    }, rgb);
}

describe("history at a glance", { timeout: 300_000 }, () => {
  before(async () => {
    // The second sync must read the stand-in again, not be handed the first run back.
    api = await startApi({ env: { HYPERLENS_MANUAL_SYNC_COOLDOWN_SECONDS: "0" } });
    await completeSetup(api);
    standin = await createProxmoxStandin({
      version: "9.1",
      cluster: {
        name: "history",
        nodes: [proxmoxNode({ name: "hist1" }, 0)],
        guests: [
          qemuGuest({ vmid: 100, name: "stays-put", node: "hist1" }),
          qemuGuest({ vmid: 101, name: "goes-away", node: "hist1" }),
          lxcGuest({ vmid: 200, name: "little-box", node: "hist1" }),
        ],
      },
    });
    browser = await launchChromium();
    const context = await browser.newContext({
      locale: "en-US",
      viewport: { width: 1440, height: 900 },
      colorScheme: "light",
    });
    context.setDefaultTimeout(20_000);
    page = await context.newPage();
    page.on("pageerror", (error) => pageErrors.push(error.message));
    // The charts are part of the figures, which are folded to one line until unfolded (§9.46).
    await page.addInitScript(() => localStorage.setItem("hyperlens.figuresExpanded", "1"));
    // Every Content-Security-Policy refusal on the page, kept where the test can read it.
    await page.addInitScript(() => {
      const seen: string[] = [];
      Object.assign(window, { cspViolations: seen });
      document.addEventListener("securitypolicyviolation", (event) =>
        seen.push(`${event.violatedDirective} ${event.blockedURI}`),
      );
    });
    await signIn(page, api.url, FIRST_ADMIN.username, FIRST_ADMIN.password);
    await page.getByText(`Signed in as ${FIRST_ADMIN.username}`).waitFor();

    const [username, tokenId] = DEFAULT_TOKEN.id.split("!");
    const saved = await graphql<{ saveProxmoxConnection: { data?: { id: string } } }>(
      `mutation($input: ProxmoxConnectionInput!) { saveProxmoxConnection(input: $input) {
        ... on MutationSaveProxmoxConnectionSuccess { data { id } } } }`,
      {
        input: {
          name: "History lab",
          url: standin.url,
          caPem: standin.caPem,
          username,
          tokenId,
          secret: DEFAULT_TOKEN.secret,
        },
      },
    );
    const id = saved.saveProxmoxConnection.data?.id;
    connectionId = id ?? "";
    assert.ok(id, "the connection was saved");
    await graphql(SYNC, { id });
    await new Promise((resolve) => setTimeout(resolve, 50));
    between = new Date();
    await new Promise((resolve) => setTimeout(resolve, 50));
    standin.cluster.addGuest(qemuGuest({ vmid: 102, name: "newcomer", node: "hist1" }));
    standin.cluster.addGuest(qemuGuest({ vmid: 103, name: "second-newcomer", node: "hist1" }));
    standin.cluster.removeGuest(101);
    await graphql(SYNC, { id });
  });

  after(async () => {
    await browser?.close();
    await standin?.close();
    await api?.stop();
  });

  // docs/behaviour.md §9.50
  test("the Proxmox chart draws both syncs and says its figures in text", async () => {
    await page.goto(`${api.url}/servers`);
    const chart = proxmoxChart();
    await chart.locator("canvas").waitFor();
    const text = chart.locator(".history-text");
    await text.getByText(/^Now \(.+\): VMs 3, containers 1, running 4\./).waitFor();
    // Two samples: the figures went from 2 VMs to 3.
    await text.getByText(/VMs 2–3, containers 1–1, running 3–4\./).waitFor();
    assert.ok(await canvasHas([0x0b, 0x57, 0xc5]), "the VM line is drawn in the light accent");
    await expectAccessible(page, "Servers with history");
  });

  // docs/behaviour.md §9.50
  test("in dark mode the chart is drawn again in the dark theme's colours", async () => {
    await page.emulateMedia({ colorScheme: "dark" });
    await page.waitForFunction(() => matchMedia("(prefers-color-scheme: dark)").matches);
    await page.waitForTimeout(200);
    assert.ok(await canvasHas([0x7f, 0xb0, 0xff]), "the VM line is drawn in the dark accent");
    assert.ok(!(await canvasHas([0x0b, 0x57, 0xc5])), "no light-theme line is left");
    await page.emulateMedia({ colorScheme: "light" });
  });

  test("the chart needs nothing the Content-Security-Policy refuses", async () => {
    const violations = await page.evaluate(
      () => (window as unknown as { cspViolations: string[] }).cspViolations,
    );
    assert.deepEqual(violations, []);
    assert.deepEqual(pageErrors, []);
  });

  // docs/behaviour.md §9.51
  test("What changed lists the guest added and the guest removed since between the syncs", async () => {
    await page.goto(`${api.url}/servers`);
    // Reachable with the figures folded too, as they open by default (§9.46).
    await page.getByRole("button", { name: "Fold to one line" }).click();
    await page.locator(".summary.folded").waitFor();
    await page.getByRole("link", { name: "What changed?" }).click();
    await page.getByRole("heading", { name: "What changed" }).waitFor();
    assert.match(page.url(), /\/servers\/changes\?since=24h$/);
    await page.goto(
      `${api.url}/servers/changes?since=${encodeURIComponent(between.toISOString())}`,
    );
    const added = page.getByRole("region", { name: "Added (2)" });
    await added.getByText("newcomer", { exact: true }).waitFor();
    await added.getByText("second-newcomer", { exact: true }).waitFor();
    const removed = page.getByRole("region", { name: "Removed (1)" });
    await removed.getByText("goes-away", { exact: true }).waitFor();
    await page.getByRole("region", { name: "Changed (0)" }).getByText("None.").waitFor();
    await expectAccessible(page, "What changed");
  });

  // docs/behaviour.md §9.51
  test("a window whose end is before its start, or an unreadable one, says so", async () => {
    await page.goto(`${api.url}/servers/changes?since=24h`);
    await page.getByLabel("Since").fill("2026-03-02T10:00");
    await page.getByLabel("Until").fill("2026-03-01T10:00");
    await page.getByRole("button", { name: "Show", exact: true }).click();
    await page.getByRole("alert").getByText("“Until” must be after “since”.").waitFor();
    await page.goto(`${api.url}/servers/changes?since=yesterday`);
    await page
      .getByRole("alert")
      .getByText(/“Since” is not a date and time/)
      .waitFor();
  });

  // docs/behaviour.md §9.51: last, as it syncs a third time.
  test("a changed guest's fields are named in the viewer's language", async () => {
    const de = JSON.parse(readFileSync(new URL("../locales/de.json", import.meta.url), "utf8"));
    const since = new Date();
    await new Promise((resolve) => setTimeout(resolve, 50));
    standin.cluster.setStatus(100, "stopped");
    await graphql(SYNC, { id: connectionId });
    await page.evaluate(() => localStorage.setItem("hyperlens.language", "de"));
    await page.goto(`${api.url}/servers/changes?since=${encodeURIComponent(since.toISOString())}`);
    const changed = page.getByRole("region", {
      name: de.changes.changed.replace("{count}", "1"),
    });
    const fields = changed.locator(".change-fields");
    await fields.getByText(`${de.servers.column.state}:`, { exact: false }).waitFor();
    assert.ok(!((await fields.textContent()) ?? "").includes("state:"));
    await page.evaluate(() => localStorage.setItem("hyperlens.language", "en"));
  });
});

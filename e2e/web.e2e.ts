// The web app in Debian's Chromium against the built app served by the real API in demo mode
// (a Proxmox, a Director and a vCenter stand-in on loopback). Run: node e2e/run.mjs (npm test runs it too).
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import path from "node:path";
import { after, before, describe, test } from "node:test";
import { DEFAULT_TOKEN } from "@hyperlens/standins/testing";
import { Secret, TOTP } from "otpauth";
import { type Browser, chromium, type Page } from "playwright-core";
import { hasAxe, seriousViolations } from "./accessibility.ts";
import { addFilter, demoProxmoxConnection } from "./browser.ts";
import { type RunningApi, startApi } from "./start-api.ts";

const ARTIFACTS = path.join(import.meta.dirname, "artifacts");
const ADMIN = { username: "admin", password: "correct horse battery staple" };

let api: RunningApi;
let browser: Browser;
let page: Page;

async function graphql<T>(query: string, variables: Record<string, unknown> = {}): Promise<T> {
  return page.evaluate(
    async ([q, v]) => {
      const response = await fetch("/graphql", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: q, variables: v }),
      });
      return (await response.json()).data;
    },
    [query, variables] as const,
  );
}

async function expectAccessible(name: string) {
  const problems = await seriousViolations(page);
  assert.deepEqual(problems, [], `${name}: serious or critical accessibility violations`);
}

/** Relative luminance contrast of two CSS rgb() colours. */
function contrast(a: string, b: string): number {
  const lum = (rgb: string) => {
    const [r = 0, g = 0, bl = 0] = (rgb.match(/\d+(\.\d+)?/g) ?? []).map(Number).map((c) => {
      const s = c / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * bl;
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

describe("Hyperlens web app", { timeout: 240_000 }, () => {
  before(async () => {
    mkdirSync(ARTIFACTS, { recursive: true });
    api = await startApi();
    browser = await chromium.launch({
      executablePath: "/usr/bin/chromium",
      args: [
        "--headless",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    });
    const context = await browser.newContext({
      viewport: { width: 1440, height: 900 },
      locale: "en-US",
      colorScheme: "light",
    });
    context.setDefaultTimeout(20_000);
    page = await context.newPage();
    if (!hasAxe) console.log("# axe-core is not installed: the accessibility checks are skipped.");
  });

  after(async () => {
    await browser?.close();
    await api?.stop();
  });

  test("first-run setup creates the administrator, then sign-out and sign-in work", async () => {
    await page.goto(`${api.url}/setup`);
    await page.getByRole("heading", { name: "Set up Hyperlens" }).waitFor();
    await page.getByLabel("Setup token").fill(api.setupToken);
    await page.getByLabel("User name").fill(ADMIN.username);
    await page.getByLabel("Password").fill(ADMIN.password);
    await page.getByRole("button", { name: "Create administrator" }).click();
    await page.getByRole("navigation").getByRole("link", { name: "Servers" }).waitFor();

    await page.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("heading", { name: "Sign in to Hyperlens" }).waitFor();
    await expectAccessible("sign-in page");
    await page.getByLabel("User name").fill(ADMIN.username);
    await page.getByLabel("Password").fill("wrong password!");
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByRole("alert").waitFor();
    await page.getByLabel("Password").fill(ADMIN.password);
    await page.getByRole("button", { name: "Sign in" }).click();
    await page.getByText(`Signed in as ${ADMIN.username}`).waitFor();
  });

  test("the empty Servers page names the Sync button", async () => {
    await page.goto(`${api.url}/servers`);
    await page.getByText("Press “Sync” to read every connection").waitFor();
    // No figures for an empty inventory: no row of zeros, no "0 byte".
    assert.equal(await page.locator("table.figures").count(), 0);
  });

  test("a Proxmox connection with an http:// address is refused inline; https saves, and Test works", async () => {
    const demo = await demoProxmoxConnection(page);
    const { username, tokenId } = demo;

    await page.goto(`${api.url}/settings/proxmox`);
    await page.getByRole("button", { name: "Add Proxmox VE connection" }).click();
    const form = page.getByRole("form", { name: "New Proxmox VE connection" });
    await form.getByLabel("Name").fill("e2e Proxmox");
    await form.getByLabel("Address").fill(demo.url.replace("https://", "http://"));
    await form.getByLabel("User").fill(username ?? "");
    await form.getByLabel("API token ID").fill(tokenId ?? "");
    await form.getByLabel("Token secret or password").fill(DEFAULT_TOKEN.secret);
    await form.getByLabel("CA certificate (PEM)").fill(demo.caPem);
    await form.getByRole("button", { name: "Save" }).click();
    await form.getByText("Hyperlens only talks to hypervisors over https").waitFor();
    assert.equal(await form.getByLabel("Address").getAttribute("aria-invalid"), "true");

    await form.getByLabel("Address").fill(demo.url);
    // The sync interval is checked as the server checks it; Test tests the form's values unsaved.
    await form.getByLabel("Sync interval (seconds)").fill("30");
    await form.getByRole("button", { name: "Test connection" }).click();
    await form.getByText("Use a whole number of seconds from 60 to 604800.").waitFor();
    await form.getByLabel("Sync interval (seconds)").fill("600");
    await form.getByRole("button", { name: "Test connection" }).click();
    await form.getByText("Connection works").waitFor();
    await expectAccessible("connection form");
    await form.getByRole("button", { name: "Save" }).click();
    const card = page.getByRole("article", { name: "e2e Proxmox" });
    await card.waitFor();
    await card.getByRole("button", { name: "Test" }).click();
    await card.getByText("Connection works").waitFor();

    // A saved edit leaves no Test result or error of before on the card or the form.
    const edit = page.getByRole("form", { name: "Edit e2e Proxmox" });
    await card.getByRole("button", { name: "Edit" }).click();
    await edit.getByLabel("Token secret or password").fill("not-the-secret");
    await edit.getByRole("button", { name: "Save" }).click();
    await edit.waitFor({ state: "detached" });
    await card.getByRole("button", { name: "Test" }).click();
    await card.getByText("Test failed").waitFor();
    await card.getByRole("button", { name: "Edit" }).click();
    await edit.getByLabel("Token secret or password").fill(DEFAULT_TOKEN.secret);
    await edit.getByRole("button", { name: "Save" }).click();
    await edit.waitFor({ state: "detached" });
    assert.equal(await card.getByText("Test failed").count(), 0, "the old Test failure is gone");

    await card.getByRole("button", { name: "Delete" }).click();
    await card.getByRole("button", { name: "Yes, delete" }).click();
    await card.waitFor({ state: "detached" });
    await expectAccessible("settings page");
  });

  test("Sync shows live progress per connection until each has finished, partial ones as such", async () => {
    await page.goto(`${api.url}/servers`);
    await page.getByRole("button", { name: "Sync", exact: true }).click();
    const panel = page.getByRole("region", { name: "Sync progress" });
    await panel.waitFor();
    const proxmox = panel.locator('[data-connection="Demo Proxmox cluster"]');
    const director = panel.locator('[data-connection="Demo Cloud Director"]');
    const vcenter = panel.locator('[data-connection="Demo vCenter"]');
    await proxmox.getByText("Finished").waitFor({ timeout: 60_000 });
    await director.getByText("Finished").waitFor({ timeout: 60_000 });
    await vcenter.getByText("Finished").waitFor({ timeout: 60_000 });
    // The demo cluster has an offline node: its lists are skipped, so the result is not a plain success.
    await proxmox.getByText("Partial").waitFor();
    await proxmox
      .getByText(/Skipped pve4/)
      .first()
      .waitFor();
    assert.equal(
      await proxmox.locator(".tone-ok").count(),
      0,
      "a partial sync is never drawn green",
    );
    const counted = ((await proxmox.textContent()) ?? "").match(/ seen\b/g) ?? [];
    assert.equal(counted.length, 1, "the counts are shown once, not again in the server's message");
  });

  test("the table shows Proxmox guests and Director VMs with their Source and IPs", async () => {
    const table = page.getByRole("table", { name: "Virtual machines and containers" });
    await table.getByRole("cell", { name: "Proxmox VE" }).first().waitFor();
    await table.getByRole("cell", { name: "Cloud Director" }).first().waitFor();
    await table.getByText("10.0.20.5").first().waitFor();
    await expectAccessible("servers page");
    await page.screenshot({ path: path.join(ARTIFACTS, "servers-light.png"), fullPage: false });
  });

  test("search by IP narrows the table", async () => {
    const table = page.getByRole("table", { name: "Virtual machines and containers" });
    const before = await table.getByRole("row").count();
    await page.getByRole("searchbox", { name: "Search by name, IP or ID" }).fill("10.0.20.5");
    await page.waitForURL(/q=10\.0\.20\.5/);
    await page.getByText(/^1 guest /).waitFor();
    const rows = await table.getByRole("row").count();
    assert.ok(rows < before, `search narrowed ${before} rows to ${rows}`);
    assert.equal(rows, 2, "the header and one guest");
  });

  test("the detail drawer shows NICs with MACs and IPs", async () => {
    const table = page.getByRole("table", { name: "Virtual machines and containers" });
    await table.getByRole("button", { name: /db-01/ }).first().click();
    const drawer = page.getByRole("dialog", { name: "db-01" });
    await drawer.getByRole("heading", { name: "Network interfaces" }).waitFor();
    await drawer.getByText("00:50:56:01:00:03").waitFor();
    // docs/behaviour.md §10.10: what the guest reports, with why a value is missing.
    await drawer.getByRole("heading", { name: "Reported by the guest" }).waitFor();
    await drawer.getByRole("heading", { name: "History" }).waitFor();
    await drawer.getByRole("button", { name: "Close" }).first().click();
    await drawer.waitFor({ state: "detached" });
  });

  test("the drawer opens a Proxmox guest in Proxmox VE and copies its ids (docs/behaviour.md §9.42)", async () => {
    const { connections } = await graphql<{ connections: { url: string }[] }>(
      "{ connections(kind: PROXMOX) { url } }",
    );
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"]);
    const base = connections[0]?.url.replace(/\/+$/, "");
    assert.match(base ?? "", /^https:\/\//, "the demo Proxmox connection is https");
    const table = page.getByRole("table", { name: "Virtual machines and containers" });
    const search = page.getByRole("searchbox", { name: "Search by name, IP or ID" });
    for (const [name, href] of [
      ["k8s-cp-01", `${base}/#v1:0:=qemu/110`],
      ["dns-01", `${base}/#v1:0:=lxc/200`],
    ] as const) {
      await search.fill(name);
      await page.getByText(/^1 guest /).waitFor();
      await table.getByRole("button", { name }).click();
      const drawer = page.getByRole("dialog", { name });
      const link = drawer.getByRole("link", { name: "Open in Proxmox VE" });
      assert.equal(await link.getAttribute("href"), href);
      assert.equal(await link.getAttribute("target"), "_blank");
      assert.equal(await link.getAttribute("rel"), "noopener noreferrer");
      await drawer.getByRole("button", { name: /^Copy ID \d+$/ }).click();
      await drawer.getByRole("status").filter({ hasText: "Copied" }).waitFor();
      await drawer
        .getByRole("button", { name: /^Copy MAC / })
        .first()
        .waitFor();
      await drawer.getByRole("button", { name: "Close" }).first().click();
      await drawer.waitFor({ state: "detached" });
    }
    await search.fill("");
  });

  test("the drawer opens a vCenter VM in the vSphere Client and a Director VM in its tenant portal (docs/behaviour.md §9.42)", async () => {
    type Vms = {
      virtualMachines: {
        edges: {
          node: {
            name: string;
            urn: string;
            details: { vcd: { vdcHref: string } };
            location: { orgName: string };
            connection: { url: string };
          };
        }[];
      };
    };
    const { virtualMachines } = await graphql<Vms>(
      `{ virtualMachines(first: 1, filter: { source: VCD }) { edges { node { name
         ... on VcdVm { urn } details location { orgName } connection { url } } } } }`,
    );
    const { connections } = await graphql<{ connections: { url: string }[] }>(
      "{ connections(kind: VCENTER) { url } }",
    );
    const vcd = virtualMachines.edges[0]?.node;
    assert.ok(vcd, "the demo Director has a VM");
    const vdcUuid = vcd.details.vcd.vdcHref.split("/").at(-1);
    const vcdBase = vcd.connection.url.replace(/\/+$/, "");
    const vcBase = connections[0]?.url.replace(/\/+$/, "");
    const table = page.getByRole("table", { name: "Virtual machines and containers" });
    const search = page.getByRole("searchbox", { name: "Search by name, IP or ID" });
    // Both are named db-01: the Source cell tells when the table shows the one searched for.
    for (const [query, name, source, ui, href] of [
      [
        "vm-1051",
        "db-01",
        "vCenter",
        "vSphere Client",
        `${vcBase}/ui/#?extensionId=vsphere.core.search.domainView&query=db-01`,
      ],
      [
        vcd.urn,
        vcd.name,
        "Cloud Director",
        "Cloud Director",
        `${vcdBase}/tenant/${vcd.location.orgName}/vdcs/${vdcUuid}/vm/${vcd.urn}/general`,
      ],
    ] as const) {
      await search.fill(query);
      await page.getByText(/^1 guest /).waitFor();
      const row = table.getByRole("row").nth(1);
      await row.getByRole("cell", { name: source, exact: true }).waitFor();
      await row.getByRole("button", { name }).click();
      const drawer = page.getByRole("dialog", { name });
      const link = drawer.getByRole("link", { name: `Open in ${ui}` });
      assert.equal(await link.getAttribute("href"), href);
      await drawer.getByRole("button", { name: "Close" }).first().click();
      await drawer.waitFor({ state: "detached" });
    }
    await search.fill("");
  });

  test("templates are left out until the Kind filter brings them in (docs/behaviour.md §6.4, §9.43)", async () => {
    const table = page.getByRole("table", { name: "Virtual machines and containers" });
    const search = page.getByRole("searchbox", { name: "Search by name, IP or ID" });
    await search.fill("ubuntu-24.04-template");
    await page.getByText("No guest matches these filters.").waitFor();
    await addFilter(page, "Kind", "Template");
    await page.waitForURL(/kind=TEMPLATE/);
    await table.getByRole("button", { name: /ubuntu-24\.04-template/ }).waitFor();
    await page.getByRole("button", { name: "Remove filter: Kind" }).click();
    await search.fill("");
  });

  test("a vCenter VM is listed with its Source, and only its own NIC's address", async () => {
    const table = page.getByRole("table", { name: "Virtual machines and containers" });
    await page.getByRole("searchbox", { name: "Search by name, IP or ID" }).fill("192.168.10.21");
    await page.waitForURL(/q=192\.168\.10\.21/);
    await page.getByText(/^1 guest /).waitFor();
    const row = table.getByRole("row").nth(1);
    await row.getByRole("cell", { name: "vCenter", exact: true }).waitFor();
    await row.getByRole("button", { name: /web-01/ }).waitFor();
    // The guest also reports docker0; an address that is not on one of the VM's own NICs is not shown.
    assert.doesNotMatch((await row.textContent()) ?? "", /172\.17\./);
  });

  test("a vCenter VM's drawer names its NICs, disks and OS as the vSphere Client does (docs/behaviour.md §6.3)", async () => {
    const table = page.getByRole("table", { name: "Virtual machines and containers" });
    await page.getByRole("searchbox", { name: "Search by name, IP or ID" }).fill("vm-1051");
    await page.getByText(/^1 guest /).waitFor();
    await table.getByRole("button", { name: /db-01/ }).click();
    const drawer = page.getByRole("dialog", { name: "db-01" });
    // The OS name shows twice: the hypervisor's and, under "Reported by the guest", VMware Tools'.
    await drawer.getByText("Red Hat Enterprise Linux 9 (64-bit)").first().waitFor();
    await drawer.getByText("RHEL_9_64", { exact: true }).waitFor();
    await drawer.getByText("BIOS UUID").waitFor();
    await drawer.getByText("Network adapter 2", { exact: true }).waitFor();
    await drawer.getByText("Hard disk 2", { exact: true }).waitFor();
    await drawer.getByRole("button", { name: "Close" }).first().click();
    await drawer.waitFor({ state: "detached" });
  });

  test("the Director connection shows its edge gateways", async () => {
    await page.goto(`${api.url}/settings/director`);
    const card = page.getByRole("article", { name: "Demo Cloud Director" });
    await card.getByRole("heading", { name: "Edge gateways" }).waitFor();
    // At least one gateway row, once the query has answered.
    await card.locator(".edge-gateways tbody tr").first().waitFor();
  });

  test("German and Arabic change the strings and the direction", async () => {
    await page.goto(`${api.url}/servers`);
    await page.getByRole("combobox", { name: "Language" }).selectOption("de");
    await page.waitForFunction(() => document.documentElement.lang === "de");
    await page.getByRole("navigation").getByRole("link", { name: "Einstellungen" }).waitFor();
    assert.equal(await page.evaluate(() => document.documentElement.dir), "ltr");

    await page.getByRole("combobox", { name: "Sprache" }).selectOption("ar");
    await page.waitForFunction(() => document.documentElement.dir === "rtl");
    assert.equal(await page.evaluate(() => document.documentElement.lang), "ar");
    await page.getByRole("navigation").getByRole("link", { name: "الإعدادات" }).waitFor();
    await page.screenshot({ path: path.join(ARTIFACTS, "servers-arabic.png") });

    await page.getByRole("combobox", { name: "اللغة" }).selectOption("en");
    await page.waitForFunction(() => document.documentElement.dir === "ltr");
  });

  test("dark mode renders with readable contrast", async () => {
    await page.emulateMedia({ colorScheme: "dark" });
    await page.goto(`${api.url}/servers`);
    await page
      .getByRole("table", { name: "Virtual machines and containers" })
      .getByRole("row")
      .nth(1)
      .waitFor();
    const colours = await page.evaluate(() => {
      const style = getComputedStyle(document.body);
      const cell = document.querySelector(".vm-table td");
      const surface = document.querySelector(".vm-scroller");
      return {
        background: style.backgroundColor,
        text: style.color,
        cellText: cell ? getComputedStyle(cell).color : "",
        surface: surface ? getComputedStyle(surface).backgroundColor : "",
      };
    });
    assert.ok(
      contrast(colours.background, "rgb(0, 0, 0)") < 1.5,
      `dark background, got ${colours.background}`,
    );
    assert.ok(contrast(colours.text, colours.background) >= 7, "body text contrast");
    assert.ok(contrast(colours.cellText, colours.surface) >= 4.5, "table text contrast");
    await expectAccessible("servers page, dark");
    await page.screenshot({ path: path.join(ARTIFACTS, "servers-dark.png") });
  });
  test("Integrations turns the Servers page's filter into snippets with a fresh read-only token", async () => {
    await page.emulateMedia({ colorScheme: "light" });
    await page.goto(`${api.url}/servers?q=db-01`);
    await page.getByRole("link", { name: "Use in Ansible or Prometheus" }).click();
    await page.getByRole("heading", { name: "Integrations", level: 1 }).waitFor();
    const ansible = page.getByRole("textbox", { name: "Ansible inventory" });
    // Every filter of the list, the page's default "no templates" too (§9.30).
    assert.match(
      await ansible.inputValue(),
      /^export HYPERLENS_INVENTORY_QUERY='isTemplate=false&search=db-01'$/m,
    );
    assert.match(await ansible.inputValue(), /HYPERLENS_TOKEN='hlk_your_token_here'/);
    await page.getByRole("button", { name: "Create a read-only token for these snippets" }).click();
    await page.getByRole("status").filter({ hasText: "read-only token" }).waitFor();
    const token = /HYPERLENS_TOKEN='(hlk_[^']+)'/.exec(await ansible.inputValue())?.[1];
    assert.ok(token && token !== "hlk_your_token_here", "the new token is in the snippet");
    const prometheus = await page
      .getByRole("textbox", { name: "Prometheus service discovery" })
      .inputValue();
    assert.ok(prometheus.includes(`credentials: "${token}"`), prometheus);
    // The snippet's address, with its token, is what Prometheus will be told: the db-01s, on 9100.
    const sdUrl = /url: "([^"]+)"/.exec(prometheus)?.[1] ?? "";
    const discovery = await fetch(sdUrl, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(discovery.status, 200);
    const groups = (await discovery.json()) as { labels: Record<string, string> }[];
    const names = new Set(groups.map((g) => g.labels.__meta_hyperlens_vm_name));
    const vms = new Set(groups.map((g) => g.labels.__meta_hyperlens_vm_id));
    assert.deepEqual([...names], ["db-01"], "only what the Servers filter shows");
    assert.equal(vms.size, groups.length, "one target per VM");
    await expectAccessible("integrations page");
    await page.screenshot({ path: path.join(ARTIFACTS, "integrations.png"), fullPage: true });

    // Removed guests are the one filter the exports refuse (§14.12): the page says so, and sends
    // the rest — here templates alone and the unconfirmed — which the API takes.
    await page.goto(`${api.url}/servers?kind=TEMPLATE&confirmation=NOT_CONFIRMED&removed=include`);
    await page.getByRole("link", { name: "Use in Ansible or Prometheus" }).click();
    await page.getByText("Removed guests are shown on the Servers page only").waitFor();
    const filtered = await page
      .getByRole("textbox", { name: "Prometheus service discovery" })
      .inputValue();
    const filteredUrl = new URL(/url: "([^"]+)"/.exec(filtered)?.[1] ?? "");
    assert.equal(filteredUrl.searchParams.get("isTemplate"), "true");
    assert.equal(filteredUrl.searchParams.get("confirmation"), "NOT_CONFIRMED");
    assert.ok(!filteredUrl.searchParams.has("includeRemoved"), filteredUrl.search);
    const answer = await fetch(filteredUrl, { headers: { authorization: `Bearer ${token}` } });
    assert.equal(answer.status, 200, await answer.clone().text());
  });

  test("revoking a token asks “Yes, revoke”, not “Yes, delete”", async () => {
    await page.goto(`${api.url}/tokens`);
    const row = page.getByRole("row").filter({ hasText: "Revoke" }).first();
    await row.getByRole("button", { name: "Revoke" }).click();
    const question = row.getByRole("alertdialog");
    assert.equal(await question.getByRole("button", { name: "Yes, delete" }).count(), 0);
    await question.getByRole("button", { name: "Yes, revoke" }).click();
    await row.getByText("revoked").waitFor();
  });

  test("two-factor: enrol on the Tokens page, keep the recovery codes, sign in with one", async () => {
    await page.emulateMedia({ colorScheme: "light" });
    const tess = { username: "tess", password: "tess correct horse battery" };
    await graphql(
      `mutation($u: String!, $p: String!) {
        createUser(username: $u, password: $p, capabilities: [VIEW_INVENTORY]) { __typename }
      }`,
      { u: tess.username, p: tess.password },
    );
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    context.setDefaultTimeout(20_000);
    const own = await context.newPage();
    await own.goto(`${api.url}/tokens`);
    await own.getByLabel("User name").fill(tess.username);
    await own.getByLabel("Password").fill(tess.password);
    await own.getByRole("button", { name: "Sign in" }).click();
    await own.getByRole("heading", { name: "Two-factor sign-in" }).waitFor();
    await own.getByLabel("Current password").fill(tess.password);
    await own.getByRole("button", { name: "Set up two-factor" }).click();
    await own.getByRole("img", { name: "QR code for your authenticator app" }).waitFor();
    const key = (await own.locator("code.manual-key").textContent()) ?? "";
    await own.screenshot({ path: path.join(ARTIFACTS, "two-factor-enrol.png"), fullPage: true });
    const code = new TOTP({ secret: Secret.fromBase32(key) }).generate();
    await own.getByLabel("Code from the app").fill(code);
    await own.getByRole("button", { name: "Turn on" }).click();
    const codes = own.getByRole("region", { name: "Recovery codes" }).locator("code");
    await codes.first().waitFor();
    assert.equal(await codes.count(), 10);
    const recovery = (await codes.first().textContent()) ?? "";
    await own.screenshot({ path: path.join(ARTIFACTS, "two-factor-recovery-codes.png") });
    await own.getByRole("button", { name: "I have saved them" }).click();
    await own.getByText("Two-factor sign-in is on").waitFor();

    await own.getByRole("button", { name: "Sign out" }).click();
    await own.getByLabel("User name").fill(tess.username);
    await own.getByLabel("Password").fill(tess.password);
    await own.getByRole("button", { name: "Sign in" }).click();
    await own.getByRole("heading", { name: "Enter your code" }).waitFor();
    await own.screenshot({ path: path.join(ARTIFACTS, "two-factor-sign-in.png") });
    await own.getByRole("button", { name: "Use a recovery code" }).click();
    await own.getByLabel("Recovery code").fill(recovery);
    await own.getByRole("button", { name: "Verify" }).click();
    await own.getByText(`Signed in as ${tess.username}`).waitFor();
    // A viewer is not sent the login: the card's summary starts with the last sync, not "·".
    await own.goto(`${api.url}/settings/proxmox`);
    const card = own.getByRole("article", { name: "Demo Proxmox cluster" });
    assert.match((await card.locator("p.muted").first().textContent()) ?? "", /^Last sync: /);
    await context.close();
  });
});

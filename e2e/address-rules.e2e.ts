// Address rules in Debian's Chromium, against the demo stand-ins: an administrator adds an ignored
// subnet on Settings → Address rules (a mistyped subnet refused beside its list), previews which
// guests it changes, saves, and the detail drawer shows the address rejected by that rule beside
// the primary address. The demo vCenter then gets its own rules (without that subnet), each
// change previewed before it is saved, and goes back to the global ones. A vCenter manager who is
// not an administrator edits the vCenter's rules but has no Address rules tab and is refused it by
// address. GraphQL only to create that user (docs/behaviour.md §9.41). Run: node e2e/run.mjs (npm test runs it).
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { hasAxe } from "./accessibility.ts";
import {
  expectAccessible,
  launchChromium,
  signIn as signInAt,
  syncDemoConnections,
} from "./browser.ts";
import { completeSetup, FIRST_ADMIN, type RunningApi, startApi } from "./start-api.ts";

const ADMIN = FIRST_ADMIN;
const MANAGER = { username: "vic", password: "vic manages vcenter only" };
/** The demo vCenter's db-01 reports this address on its second NIC. */
const DB_ADDRESS = "10.99.0.31";
const DB_MOREF = "vm-1051";

let api: RunningApi;
let browser: Browser;
let admin: Page;
const pageErrors: string[] = [];

async function newPage(): Promise<Page> {
  const context = await browser.newContext({
    locale: "en-US",
    viewport: { width: 1440, height: 900 },
  });
  context.setDefaultTimeout(20_000);
  const page = await context.newPage();
  page.on("pageerror", (error) => pageErrors.push(error.message));
  return page;
}

async function signIn(page: Page, username: string, password: string) {
  await signInAt(page, api.url, username, password);
  await page.getByText(`Signed in as ${username}`).waitFor();
}

const globalForm = () => admin.getByRole("form", { name: "Address rules", exact: true });
const vcenterForm = () => admin.getByRole("form", { name: "Address rules for Demo vCenter" });
const previewTable = (page: Page) =>
  page.getByRole("table", { name: "Guests whose addresses would change" });

/** The detail drawer of the demo vCenter's db-01, found by its MoRef. */
async function openDbDrawer(page: Page) {
  await page.goto(`${api.url}/servers`);
  await page.getByRole("searchbox", { name: "Search by name, IP or ID" }).fill(DB_MOREF);
  await page.getByText(/^1 guest /).waitFor();
  await page
    .getByRole("table", { name: "Virtual machines and containers" })
    .getByRole("button", { name: /db-01/ })
    .click();
  const drawer = page.getByRole("dialog", { name: "db-01" });
  await drawer.getByRole("heading", { name: "Network interfaces" }).waitFor();
  return drawer;
}

/** The line of one address in the drawer's NIC lists. */
const addressLine = (drawer: ReturnType<Page["getByRole"]>, address: string) =>
  drawer.getByRole("listitem").filter({ hasText: address });

describe("address rules in the browser", { timeout: 300_000 }, () => {
  before(async () => {
    api = await startApi();
    await completeSetup(api);
    browser = await launchChromium();
    admin = await newPage();
    if (!hasAxe) console.log("# axe-core is not installed: the accessibility checks are skipped.");
    await signIn(admin, ADMIN.username, ADMIN.password);
    // The rules judge the stored inventory: read the demo hypervisors first.
    await syncDemoConnections(admin, api.url);
  });

  after(async () => {
    await browser?.close();
    await api?.stop();
  });

  // docs/behaviour.md §9.41
  test("before any rule is set, db-01's address is accepted and its primary address is marked", async () => {
    const drawer = await openDbDrawer(admin);
    const line = addressLine(drawer, DB_ADDRESS);
    await line.waitFor();
    assert.equal(await line.getByText("rejected").count(), 0);
    await addressLine(drawer, "192.168.10.31").getByText("Primary", { exact: true }).waitFor();
    assert.equal(await drawer.getByText("Primary", { exact: true }).count(), 1, "one primary");
    await drawer.getByRole("button", { name: "Close" }).first().click();
  });

  // docs/behaviour.md §9.41
  test("the administrator opens Address rules from Settings; a mistyped subnet is refused beside its list", async () => {
    await admin.getByRole("navigation").getByRole("link", { name: "Settings" }).click();
    await admin.getByRole("tab", { name: "Address rules" }).click();
    await admin.waitForURL(/\/settings\/address-rules$/);
    await globalForm().waitFor();
    await admin.getByText("These are the shipped rules").waitFor();
    // The suggested patterns are toggles with why each is worth ignoring.
    const suggested = globalForm().getByRole("group", { name: "Suggested patterns" });
    assert.equal(await suggested.getByRole("checkbox", { name: /docker\*/ }).isChecked(), true);
    assert.equal(await suggested.getByRole("checkbox", { name: /^wg\*/ }).isChecked(), false);
    await suggested.getByText("Docker's default bridge").waitFor();

    const ignored = globalForm().getByLabel("Ignored subnets");
    await ignored.fill("10.99.0.1/16");
    await ignored.blur();
    const problem = globalForm()
      .getByRole("alert")
      .filter({ hasText: "“10.99.0.1/16” is not a subnet" });
    await problem.waitFor();
    assert.equal(await ignored.getAttribute("aria-invalid"), "true");
    const describedBy = (await ignored.getAttribute("aria-describedby")) ?? "";
    assert.ok(
      describedBy.split(" ").includes((await problem.getAttribute("id")) ?? "-"),
      "the problem is tied to the Ignored subnets list",
    );
    await globalForm().getByRole("button", { name: "Preview" }).click();
    assert.equal(await previewTable(admin).count(), 0, "nothing is previewed with a problem");
    await expectAccessible(admin, "Address rules with a refused subnet");
  });

  // docs/behaviour.md §9.41
  test("an ignored subnet is previewed, listing db-01's address dropped by that rule, then saved", async () => {
    const form = globalForm();
    const save = form.getByRole("button", { name: "Save rules" });
    await form.getByLabel("Ignored subnets").fill("10.99.0.0/16");
    await form.getByText("Preview the change before saving it.").waitFor();
    assert.equal(await save.isDisabled(), true, "no save before a preview");

    await form.getByRole("button", { name: "Preview" }).click();
    const table = previewTable(admin);
    const row = table
      .getByRole("row")
      .filter({ hasText: "Demo vCenter" })
      .filter({ hasText: "db-01" });
    await row.waitFor();
    await row.getByText(DB_ADDRESS).waitFor();
    await row.getByText("ignored subnet", { exact: true }).waitFor();
    await form
      .getByRole("status")
      .filter({ hasText: /\d+ guests? of \d+ would change/ })
      .waitFor();
    await expectAccessible(admin, "Address rules with a preview");

    // An edit after the preview needs a new one.
    await form.getByLabel("Permitted subnets").fill("10.0.0.0/8");
    assert.equal(await save.isDisabled(), true, "the edited draft was not previewed");
    assert.equal(await table.count(), 0, "the old preview is not shown for the new draft");
    // Back to the very change previewed: its preview stands, and it may be saved.
    await form.getByLabel("Permitted subnets").fill("");
    await form.getByText("Saving applies this change at once, as previewed.").waitFor();
    await table.waitFor();
    await save.click();
    await admin.getByRole("status").filter({ hasText: "Saved." }).waitFor();
    await admin.getByText("These are the shipped rules").waitFor({ state: "detached" });
    assert.equal(await globalForm().getByLabel("Ignored subnets").inputValue(), "10.99.0.0/16");
  });

  // docs/behaviour.md §9.41, §10.1
  test("the detail drawer shows the address rejected by the ignored-subnet rule", async () => {
    const drawer = await openDbDrawer(admin);
    const line = addressLine(drawer, DB_ADDRESS);
    await line.getByText("rejected").waitFor();
    await line.getByText("ignored subnet", { exact: true }).waitFor();
    await addressLine(drawer, "192.168.10.31").getByText("Primary", { exact: true }).waitFor();
    await expectAccessible(admin, "detail drawer with a rejected address");
    await drawer.getByRole("button", { name: "Close" }).first().click();
  });

  // docs/behaviour.md §9.41
  test("the demo vCenter gets its own rules without the ignored subnet, previewed, then goes back to the global ones", async () => {
    await admin.goto(`${api.url}/settings/vcenter`);
    const card = admin.getByRole("article", { name: "Demo vCenter" });
    await card.getByText("Address rules", { exact: true }).click();
    const form = vcenterForm();
    await form.getByText("uses the global rules").waitFor();
    await form.getByLabel("Own rules for this connection").check();
    // Own rules start from the global ones.
    const ignored = form.getByLabel("Ignored subnets");
    assert.equal(await ignored.inputValue(), "10.99.0.0/16");
    await ignored.fill("");
    await form.getByRole("button", { name: "Preview" }).click();
    const row = previewTable(admin).getByRole("row").filter({ hasText: "db-01" });
    await row.getByText(DB_ADDRESS).waitFor();
    await expectAccessible(admin, "a connection's own address rules with a preview");
    await form.getByRole("button", { name: "Save rules" }).click();
    await card.getByRole("status").filter({ hasText: "Saved." }).waitFor();

    let drawer = await openDbDrawer(admin);
    await addressLine(drawer, DB_ADDRESS).waitFor();
    assert.equal(await addressLine(drawer, DB_ADDRESS).getByText("rejected").count(), 0);
    await drawer.getByRole("button", { name: "Close" }).first().click();

    await admin.goto(`${api.url}/settings/vcenter`);
    await card.getByText("Address rules", { exact: true }).click();
    await form.getByLabel("Use the global rules").check();
    await form.getByText("Back to the global rules").waitFor();
    const back = form.getByRole("button", { name: "Use the global rules" });
    assert.equal(await back.isDisabled(), true, "no save before a preview");
    await form.getByRole("button", { name: "Preview" }).click();
    const dropped = previewTable(admin).getByRole("row").filter({ hasText: "db-01" });
    await dropped.getByText("ignored subnet", { exact: true }).waitFor();
    await back.click();
    await card.getByRole("status").filter({ hasText: "Saved." }).waitFor();
    await form.getByText("uses the global rules").waitFor();

    drawer = await openDbDrawer(admin);
    await addressLine(drawer, DB_ADDRESS).getByText("ignored subnet", { exact: true }).waitFor();
    await drawer.getByRole("button", { name: "Close" }).first().click();
  });

  // docs/behaviour.md §9.41
  test("reset to shipped rules is previewed, then stores no rules", async () => {
    await admin.goto(`${api.url}/settings/address-rules`);
    const form = globalForm();
    await form.getByRole("button", { name: "Reset to shipped rules" }).click();
    await form.getByText("Back to the shipped rules").waitFor();
    await form.getByRole("button", { name: "Preview" }).click();
    await previewTable(admin).getByRole("row").filter({ hasText: "db-01" }).waitFor();
    await form.getByRole("button", { name: "Reset to shipped rules" }).click();
    await admin.getByRole("status").filter({ hasText: "Saved." }).waitFor();
    await admin.getByText("These are the shipped rules").waitFor();
  });

  // docs/behaviour.md §9.41
  test("a vCenter manager who is not an administrator may edit the vCenter's rules, but has no Address rules tab and is refused it", async () => {
    const created = await admin.evaluate(async (user) => {
      const response = await fetch("/graphql", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          query:
            "mutation($u: String!, $p: String!) { createUser(username: $u, password: $p, capabilities: [VIEW_INVENTORY, MANAGE_VCENTER]) { __typename } }",
          variables: { u: user.username, p: user.password },
        }),
      });
      return (await response.json()).data.createUser.__typename;
    }, MANAGER);
    assert.equal(created, "MutationCreateUserSuccess");

    const manager = await newPage();
    await signIn(manager, MANAGER.username, MANAGER.password);
    await manager.goto(`${api.url}/settings/vcenter`);
    await manager.getByRole("tab", { name: "vCenter" }).waitFor();
    assert.equal(await manager.getByRole("tab", { name: "Address rules" }).count(), 0);
    // Managing the vCenter connections, they may give the demo vCenter its own rules.
    const card = manager.getByRole("article", { name: "Demo vCenter" });
    await card.getByText("Address rules", { exact: true }).click();
    const form = manager.getByRole("form", { name: "Address rules for Demo vCenter" });
    await form.getByText("uses the global rules").waitFor();
    await form.getByLabel("Own rules for this connection").check();
    await form.getByLabel("Ignored subnets").waitFor();

    await manager.goto(`${api.url}/settings/address-rules`);
    await manager
      .getByRole("alert")
      .filter({ hasText: "You do not have access to this page." })
      .waitFor();
    assert.equal(
      await manager.getByRole("form", { name: "Address rules", exact: true }).count(),
      0,
    );
    await expectAccessible(manager, "Address rules refused");
  });

  test("no page threw an uncaught error along the way", () => {
    assert.deepEqual(pageErrors, []);
  });
});

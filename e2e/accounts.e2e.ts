// Accounts for a real organisation in Debian's Chromium, through the pages an administrator and a
// user click: connection groups (create, rename, a duplicate name refused beside the field), a
// user (create, capabilities, one group, password reset), the forced password change, the
// Sessions page with "sign out everywhere else", and disabling the user. GraphQL only for the
// first administrator (docs/behaviour.md §9.21, §9.22). Run: node e2e/run.mjs (npm test runs it).
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { hasAxe } from "./accessibility.ts";
import { expectAccessible, launchChromium, signIn as signInAt } from "./browser.ts";
import { completeSetup, FIRST_ADMIN, type RunningApi, startApi } from "./start-api.ts";

const ADMIN = FIRST_ADMIN;
const USER = {
  username: "carol",
  first: "carols first password",
  reset: "reset by the admin 42",
  chosen: "carols own new password",
};
const AGENT = {
  second: "Mozilla/5.0 (X11; Linux x86_64) AccountsE2E/second",
  third: "Mozilla/5.0 (X11; Linux x86_64) AccountsE2E/third",
};

let api: RunningApi;
let browser: Browser;
let admin: Page;
let user: Page;
let other: Page;
/** Uncaught errors in any page: a form that throws after saving must not pass unnoticed. */
const pageErrors: string[] = [];

async function newPage(userAgent?: string): Promise<Page> {
  const context: BrowserContext = await browser.newContext({
    locale: "en-US",
    viewport: { width: 1440, height: 900 },
    ...(userAgent ? { userAgent } : {}),
  });
  context.setDefaultTimeout(20_000);
  const page = await context.newPage();
  page.on("pageerror", (error) => pageErrors.push(error.message));
  return page;
}

async function signIn(page: Page, username: string, password: string) {
  await signInAt(page, api.url, username, password);
}

async function openPage(page: Page, link: string) {
  await page.getByRole("navigation").getByRole("link", { name: link, exact: true }).click();
}

const rowOf = (page: Page, text: string) => page.getByRole("row").filter({ hasText: text });

describe("accounts for a real organisation in the browser", { timeout: 240_000 }, () => {
  before(async () => {
    api = await startApi();
    await completeSetup(api);
    browser = await launchChromium();
    admin = await newPage();
    if (!hasAxe) console.log("# axe-core is not installed: the accessibility checks are skipped.");
  });

  after(async () => {
    await browser?.close();
    await api?.stop();
  });

  // docs/behaviour.md §9.21
  test("the administrator creates two groups, renames one, and is told beside the name field that a name is taken", async () => {
    await signIn(admin, ADMIN.username, ADMIN.password);
    await admin.getByText("Signed in as admin").waitFor();
    await openPage(admin, "Groups");
    const create = admin.getByRole("form", { name: "Create group" });
    for (const [name, description] of [
      ["Tenant A", "First tenant"],
      ["Tenant B", ""],
    ]) {
      await create.getByLabel("Name").fill(name ?? "");
      await create.getByLabel("Description").fill(description ?? "");
      await create.getByRole("button", { name: "Create group" }).click();
      await rowOf(admin, name ?? "").waitFor();
      assert.equal(await create.getByLabel("Name").inputValue(), "", "the form starts over");
    }

    await admin.getByRole("button", { name: "Edit group Tenant A" }).click();
    const edit = admin.getByRole("form", { name: "Edit group Tenant A" });
    await edit.getByLabel("Name").fill("Acme");
    await edit.getByLabel("Description").fill("Acme Corporation");
    await edit.getByRole("button", { name: "Save" }).click();
    await rowOf(admin, "Acme Corporation").waitFor();
    assert.equal(await rowOf(admin, "Tenant A").count(), 0, "the old name is gone");

    await admin.getByRole("button", { name: "Edit group Tenant B" }).click();
    const clash = admin.getByRole("form", { name: "Edit group Tenant B" });
    const name = clash.getByLabel("Name");
    await name.fill("Acme");
    await clash.getByRole("button", { name: "Save" }).click();
    await clash
      .getByRole("alert")
      .filter({ hasText: "A group named Acme already exists." })
      .waitFor();
    assert.equal(await name.getAttribute("aria-invalid"), "true");
    const describedBy = (await name.getAttribute("aria-describedby")) ?? "";
    assert.match(
      (await admin.locator(`[id="${describedBy}"]`).textContent()) ?? "",
      /already exists/,
      "the problem is tied to the name field",
    );
    await expectAccessible(admin, "Groups page with an edit form and its problem");
    await clash.getByRole("button", { name: "Cancel" }).click();
    await rowOf(admin, "Tenant B").waitFor();
  });

  test("the administrator creates a user, edits the capabilities, grants one group and resets the password", async () => {
    await openPage(admin, "Users");
    const create = admin
      .locator("form")
      .filter({ has: admin.getByRole("heading", { name: "Create user" }) });
    await create.getByLabel("User name").fill(USER.username);
    await create.getByLabel("Password").fill(USER.first);
    await create.getByRole("button", { name: "Create user" }).click();
    const row = rowOf(admin, USER.username);
    await row.waitFor();

    await row.getByRole("button", { name: "Edit", exact: true }).click();
    const edit = row.getByRole("form", { name: `Edit ${USER.username}` });
    await edit.getByLabel("Start syncs").check();
    await edit.getByRole("button", { name: "Save" }).click();
    await row
      .getByRole("cell", { name: /View inventory.*Start syncs|Start syncs.*View inventory/ })
      .waitFor();

    const grants = row.getByRole("group", { name: `Connections ${USER.username} sees` });
    if (await grants.getByLabel("All connections").isChecked())
      await grants.getByLabel("All connections").uncheck();
    await grants.getByLabel("Acme").check();
    assert.equal(await grants.getByLabel("Tenant B").isChecked(), false);
    await row.getByRole("button", { name: "Save" }).click();
    await row.getByRole("status").filter({ hasText: "Saved." }).waitFor();

    await row.getByRole("button", { name: "Reset password" }).click();
    await row.getByLabel("New password").fill(USER.reset);
    await row.getByRole("button", { name: "Reset password" }).click();
    await row.getByRole("status").filter({ hasText: "must choose a new password" }).waitFor();
    await row.getByText("must change password", { exact: true }).waitFor();

    await admin.reload();
    const reloaded = rowOf(admin, USER.username).getByRole("group", {
      name: `Connections ${USER.username} sees`,
    });
    assert.equal(await reloaded.getByLabel("Acme").isChecked(), true, "the grant was saved");
    assert.equal(await reloaded.getByLabel("Tenant B").isChecked(), false);
    assert.equal(await reloaded.getByLabel("All connections").isChecked(), false);
    await expectAccessible(admin, "Users page");
  });

  // docs/behaviour.md §9.22
  test("the user signs in with the reset password, must change it, then lands in the app", async () => {
    user = await newPage(AGENT.second);
    await signIn(user, USER.username, USER.reset);
    await user.getByRole("heading", { name: "Change password" }).waitFor();
    await user
      .getByRole("alert")
      .filter({ hasText: "An administrator reset your password." })
      .waitFor();
    await user.getByLabel("Current password").fill(USER.reset);
    await user.getByLabel("New password", { exact: true }).fill(USER.chosen);
    await user.getByLabel("Repeat the new password").fill(USER.chosen);
    await user.getByRole("button", { name: "Change password" }).click();
    await user.getByRole("navigation").getByRole("link", { name: "Servers" }).waitFor();
    await user.getByText(`Signed in as ${USER.username}`).waitFor();
  });

  test("the Sessions page lists the user's sessions; signing out everywhere else ends the other browser's", async () => {
    other = await newPage(AGENT.third);
    await signIn(other, USER.username, USER.chosen);
    await other.getByRole("navigation").getByRole("link", { name: "Servers" }).waitFor();

    await openPage(user, "Sessions");
    await user.getByRole("heading", { name: "Your sessions" }).waitFor();
    const mine = rowOf(user, AGENT.second);
    await mine.getByText("this session").waitFor();
    await mine.getByText("127.0.0.1").waitFor();
    await rowOf(user, AGENT.third).getByText("127.0.0.1").waitFor();
    await expectAccessible(user, "Sessions page");

    await user.getByRole("button", { name: "Sign out everywhere else" }).click();
    await user.getByRole("status").filter({ hasText: "Other sessions signed out: 1." }).waitFor();
    await rowOf(user, AGENT.third).waitFor({ state: "detached" });
    await rowOf(user, AGENT.second).getByText("this session").waitFor();

    await other.goto(`${api.url}/servers`);
    await other.getByRole("heading", { name: "Sign in to Hyperlens" }).waitFor();
    await user.goto(`${api.url}/sessions`);
    await user.getByRole("heading", { name: "Your sessions" }).waitFor();
  });

  test("disabling the user signs their browser out on its next navigation", async () => {
    await openPage(admin, "Users");
    const row = rowOf(admin, USER.username);
    await row.getByRole("button", { name: "Disable" }).click();
    await row.getByRole("alertdialog").getByRole("button", { name: "Disable" }).click();
    await row.getByText("disabled", { exact: true }).waitFor();

    await user.goto(`${api.url}/servers`);
    await user.getByRole("heading", { name: "Sign in to Hyperlens" }).waitFor();
    await signIn(user, USER.username, USER.chosen);
    await user
      .getByRole("alert")
      .filter({ hasText: "The user name or password is not correct." })
      .waitFor();
  });

  test("no page threw an uncaught error along the way", () => {
    assert.deepEqual(pageErrors, []);
  });
});

// The Webhooks page in Debian's Chromium: an administrator adds an endpoint pointing at a
// receiver this test runs (an address with a password refused beside the field), copies the
// secret shown once, sends test events that the receiver verifies with that secret and that the
// delivery log lists newest first with their status, edits and disables the endpoint, rotates its
// secret and deletes it. A user manager who is not an administrator finds no Webhooks link and is
// told the page is not theirs. GraphQL only for the first administrator and the user manager
// (docs/behaviour.md §9.40). Run: node e2e/run.mjs (npm test runs it).
import assert from "node:assert/strict";
import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { after, before, describe, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { hasAxe } from "./accessibility.ts";
import { expectAccessible, launchChromium, signIn as signInAt } from "./browser.ts";
import { completeSetup, FIRST_ADMIN, type RunningApi, startApi } from "./start-api.ts";

const ADMIN = FIRST_ADMIN;
const MANAGER = { username: "uma", password: "uma manages users only" };

/** What the receiver was sent, and the status it answers with next. */
interface Received {
  eventType: string;
  signature: string;
  body: string;
}

let api: RunningApi;
let browser: Browser;
let admin: Page;
let receiver: Server;
let receiverUrl: string;
let answerStatus = 204;
const received: Received[] = [];
let secret = "";
const pageErrors: string[] = [];

async function newPage(): Promise<Page> {
  const context = await browser.newContext({
    locale: "en-US",
    viewport: { width: 1440, height: 900 },
  });
  context.setDefaultTimeout(20_000);
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  const page = await context.newPage();
  page.on("pageerror", (error) => pageErrors.push(error.message));
  return page;
}

async function signIn(page: Page, username: string, password: string) {
  await signInAt(page, api.url, username, password);
  await page.getByText(`Signed in as ${username}`).waitFor();
}

/** True when a delivery's Hyperlens-Signature is the HMAC of "t.body" under the secret. */
function isSignedWith(delivery: Received, key: string): boolean {
  const fields = Object.fromEntries(delivery.signature.split(",").map((part) => part.split("=")));
  const expected = createHmac("sha256", key).update(`${fields.t}.${delivery.body}`).digest("hex");
  return fields.v1 === expected;
}

const endpointSection = () => admin.getByRole("region", { name: receiverUrl, exact: true });

describe("the Webhooks page in the browser", { timeout: 240_000 }, () => {
  before(async () => {
    receiver = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk) => {
        body += chunk;
      });
      request.on("end", () => {
        received.push({
          eventType: String(request.headers["hyperlens-event-type"]),
          signature: String(request.headers["hyperlens-signature"]),
          body,
        });
        response.writeHead(answerStatus).end();
      });
    });
    await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hyperlens`;
    // The receiver is on this machine over plain http: a lab setting (docs/behaviour.md §14.21).
    api = await startApi({ env: { HYPERLENS_ALLOW_LOOPBACK_TARGETS: "1" } });
    await completeSetup(api);
    browser = await launchChromium();
    admin = await newPage();
    if (!hasAxe) console.log("# axe-core is not installed: the accessibility checks are skipped.");
  });

  after(async () => {
    await browser?.close();
    await api?.stop();
    await new Promise((resolve) => receiver?.close(resolve));
  });

  // docs/behaviour.md §9.40
  test("the administrator adds an endpoint; an address with a password is refused beside the field; the secret is shown once", async () => {
    await signIn(admin, ADMIN.username, ADMIN.password);
    await admin.getByRole("navigation").getByRole("link", { name: "Webhooks" }).click();
    await admin.getByRole("heading", { name: "Webhooks", level: 1 }).waitFor();
    await admin.getByText("No webhook endpoints yet.").waitFor();

    const create = admin.getByRole("form", { name: "Add endpoint" });
    const url = create.getByLabel("Receiver address");
    await url.fill(receiverUrl.replace("http://", "http://ops:hunter2@"));
    await create.getByRole("button", { name: "Add endpoint" }).click();
    await create.getByRole("alert").filter({ hasText: "Put no user name or password" }).waitFor();
    assert.equal(await url.getAttribute("aria-invalid"), "true");
    const describedBy = (await url.getAttribute("aria-describedby")) ?? "";
    assert.match(
      (await admin.locator(`[id="${describedBy.split(" ").pop()}"]`).textContent()) ?? "",
      /no user name or password/,
      "the problem is tied to the address field",
    );
    await expectAccessible(admin, "Webhooks page with a refused address");

    await url.fill(receiverUrl);
    await create.getByLabel("Description").fill("Ops receiver");
    await create.getByRole("group", { name: "Event types" }).getByLabel("VM added").check();
    await create.getByRole("button", { name: "Add endpoint" }).click();
    const shown = admin.getByRole("region", { name: `Signing secret for ${receiverUrl}` });
    secret = (await shown.locator("code").textContent()) ?? "";
    assert.match(secret, /^whsec_/);
    await shown.getByRole("link", { name: /signature check on the Integrations page/ }).waitFor();
    await shown.getByRole("button", { name: "Copy" }).click();
    await shown.getByRole("button", { name: "Copied" }).waitFor();
    assert.equal(await admin.evaluate(() => navigator.clipboard.readText()), secret);
    await expectAccessible(admin, "Webhooks page with a secret shown");
    await shown.getByRole("button", { name: "Close" }).click();

    await endpointSection().getByText("Ops receiver").waitFor();
    await endpointSection().getByText("VM added").waitFor();
    await admin.reload();
    await endpointSection().waitFor();
    assert.equal(await admin.getByText(secret).count(), 0, "the secret is not shown again");
  });

  // docs/behaviour.md §9.40
  test("send test event shows the result, and the delivery log lists the attempts newest first", async () => {
    const section = endpointSection();
    await section.getByRole("button", { name: "Send test event" }).click();
    await section
      .getByRole("status")
      .filter({ hasText: "Test event delivered: status 204" })
      .waitFor();
    const test = received.find((r) => r.eventType === "WEBHOOK_TEST");
    assert.ok(test, "the receiver was sent the test event");
    assert.ok(isSignedWith(test, secret), "signed with the secret the page showed");

    answerStatus = 500;
    await section.getByRole("button", { name: "Send test event" }).click();
    await section
      .getByRole("status")
      .filter({ hasText: "Test event not delivered: status 500" })
      .waitFor();

    await section.getByText(/Delivery log \(2 attempts\)/).click();
    const log = section.getByRole("table", { name: `Delivery log of ${receiverUrl}` });
    const rows = log.getByRole("row");
    await rows.nth(2).waitFor();
    const cells = async (n: number) => await rows.nth(n).getByRole("cell").allTextContents();
    const [newest, older] = [await cells(1), await cells(2)];
    assert.deepEqual(newest.slice(1, 4), ["Test event", "Failed", "500"]);
    assert.deepEqual(older.slice(1, 4), ["Test event", "Delivered", "204"]);
    assert.match(newest[4] ?? "", /\d ms/, "the latency");
    assert.equal(newest[5], "1", "the attempt");
    await section.getByText(/Last delivery:\s*Failed/).waitFor();
    await expectAccessible(admin, "Webhooks page with a delivery log");
  });

  test("the administrator edits and disables the endpoint, rotates its secret, then deletes it", async () => {
    const section = endpointSection();
    await section.getByRole("button", { name: `Edit webhook ${receiverUrl}` }).click();
    const edit = section.getByRole("form", { name: `Edit webhook ${receiverUrl}` });
    await edit.getByLabel("Description").fill("Ops receiver, paused");
    await edit.getByRole("group", { name: "Event types" }).getByLabel("VM removed").check();
    await edit.getByLabel("Enabled").uncheck();
    await edit.getByRole("button", { name: "Save" }).click();
    await section.getByText("Ops receiver, paused").waitFor();
    await section.getByText("VM added, VM removed").waitFor();
    await section.getByText("Disabled", { exact: true }).waitFor();

    await section.getByRole("button", { name: "Rotate secret" }).click();
    await section.getByRole("alertdialog").getByRole("button", { name: "Yes, rotate" }).click();
    const shown = admin.getByRole("region", { name: `Signing secret for ${receiverUrl}` });
    const rotated = (await shown.locator("code").textContent()) ?? "";
    assert.match(rotated, /^whsec_/);
    assert.notEqual(rotated, secret, "a new secret");
    await shown.getByRole("button", { name: "Close" }).click();

    await section.getByRole("button", { name: "Delete" }).click();
    await section.getByRole("alertdialog").getByRole("button", { name: "Yes, delete" }).click();
    await section.waitFor({ state: "detached" });
    await admin.getByText("No webhook endpoints yet.").waitFor();
  });

  test("a user manager who is not an administrator has no Webhooks link and is refused the page", async () => {
    const created = await admin.evaluate(async (user) => {
      const response = await fetch("/graphql", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({
          query:
            "mutation($u: String!, $p: String!) { createUser(username: $u, password: $p, capabilities: [VIEW_INVENTORY, MANAGE_USERS]) { __typename } }",
          variables: { u: user.username, p: user.password },
        }),
      });
      return (await response.json()).data.createUser.__typename;
    }, MANAGER);
    assert.equal(created, "MutationCreateUserSuccess");

    const manager = await newPage();
    await signIn(manager, MANAGER.username, MANAGER.password);
    const nav = manager.getByRole("navigation");
    await nav.getByRole("link", { name: "Users" }).waitFor();
    assert.equal(await nav.getByRole("link", { name: "Webhooks" }).count(), 0);

    await manager.goto(`${api.url}/webhooks`);
    await manager
      .getByRole("alert")
      .filter({ hasText: "You do not have access to this page." })
      .waitFor();
    assert.equal(await manager.getByRole("form", { name: "Add endpoint" }).count(), 0);
    await expectAccessible(manager, "Webhooks page refused");
  });

  test("no page threw an uncaught error along the way", () => {
    assert.deepEqual(pageErrors, []);
  });
});

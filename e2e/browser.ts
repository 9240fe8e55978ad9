// What the browser tests share: Debian's Chromium, signing in through the page, and the axe check.
import assert from "node:assert/strict";
import { DEFAULT_TOKEN } from "@hyperlens/standins/testing";
import { type Browser, chromium, type Page } from "playwright-core";
import { hasAxe, seriousViolations } from "./accessibility.ts";

/** Debian's Chromium, headless, as every browser test runs it. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: "/usr/bin/chromium",
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-quic"],
  });
}

/** Fills in and sends the sign-in page at `url`; what follows (setup of a new password…) is the caller's. */
export async function signIn(page: Page, url: string, username: string, password: string) {
  await page.goto(`${url}/`);
  await page.getByRole("heading", { name: "Sign in to Hyperlens" }).waitFor();
  await page.getByLabel("User name").fill(username);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

/** No serious or critical axe violations on the page (skipped where axe-core is not installed). */
export async function expectAccessible(page: Page, name: string) {
  if (!hasAxe) return;
  assert.deepEqual(await seriousViolations(page), [], `${name}: serious or critical violations`);
}

/** Adds one filter on the Servers page's filter bar: "Add filter", the filter, its value, Apply. */
export async function addFilter(page: Page, filter: string, value: string) {
  const menu = page.locator("details.menu").filter({ hasText: "Add filter" });
  if ((await menu.getAttribute("open")) === null) await menu.locator("summary").click();
  await menu.getByRole("combobox", { name: "Filter", exact: true }).selectOption({ label: filter });
  await menu.getByRole("combobox", { name: "Value" }).selectOption({ label: value });
  await menu.getByRole("button", { name: "Apply" }).click();
}

/** The demo connections every browser test's server starts with (e2e/start-api.ts). */
export const DEMO_CONNECTIONS = ["Demo Proxmox cluster", "Demo Cloud Director", "Demo vCenter"];

/** Presses Sync on the Servers page at `url` and waits for every demo connection to finish. */
export async function syncDemoConnections(page: Page, url: string) {
  await page.goto(`${url}/servers`);
  await page.getByRole("button", { name: "Sync", exact: true }).click({ timeout: 60_000 });
  const panel = page.getByRole("region", { name: "Sync progress" });
  for (const name of DEMO_CONNECTIONS) {
    await panel
      .locator(`[data-connection="${name}"]`)
      .getByText("Finished")
      .waitFor({ timeout: 60_000 });
  }
}

/**
 * Reads `read` again every 100 ms until `isDone` holds for what it read, up to `timeout`, and
 * returns the last reading either way: the caller's assertion then shows what the page held.
 */
export async function pollUntil<T>(
  read: () => Promise<T>,
  isDone: (value: T) => boolean,
  timeout = 20_000,
): Promise<T> {
  const deadline = Date.now() + timeout;
  for (;;) {
    const value = await read();
    if (isDone(value) || Date.now() > deadline) return value;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * A GraphQL request from inside the page, with its session cookie: the data, or a failed assertion
 * naming the errors.
 */
export async function pageGraphql<T>(
  page: Page,
  query: string,
  variables: Record<string, unknown> = {},
): Promise<T> {
  const body = await page.evaluate(
    async ([q, v]) => {
      const response = await fetch("/graphql", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ query: q, variables: v }),
      });
      return response.json();
    },
    [query, variables] as const,
  );
  assert.equal(body.errors, undefined, JSON.stringify(body.errors));
  return body.data as T;
}

/** The demo Proxmox connection's address, CA and the stand-in token's user and id. */
export async function demoProxmoxConnection(page: Page) {
  const { connections } = await pageGraphql<{
    connections: { kind: string; url: string; caPem: string }[];
  }>(page, "{ connections { kind url caPem } }");
  const demo = connections.find((c) => c.kind === "PROXMOX");
  assert.ok(demo, "the demo Proxmox connection exists");
  const [username, tokenId] = DEFAULT_TOKEN.id.split("!");
  return { url: demo.url, caPem: demo.caPem, username, tokenId };
}

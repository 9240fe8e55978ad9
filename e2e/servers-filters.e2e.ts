// The Servers page's search forms and filter bar in Debian's Chromium, against the demo stand-ins
// (docs/behaviour.md §9.43, §9.44): each search form finds the guests it names, each filter chip
// narrows the list and lands in the page's address, removing a chip widens the list again, and
// every column header sorts. Run: node e2e/run.mjs servers-filters.
import assert from "node:assert/strict";
import { after, before, describe, test } from "node:test";
import type { Browser, Page } from "playwright-core";
import { addFilter, launchChromium, pollUntil, signIn, syncDemoConnections } from "./browser.ts";
import { completeSetup, FIRST_ADMIN, type RunningApi, startApi } from "./start-api.ts";

let api: RunningApi;
let browser: Browser;
let page: Page;
const pageErrors: string[] = [];

const table = () => page.getByRole("table", { name: "Virtual machines and containers" });
const searchBox = () => page.getByRole("searchbox", { name: "Search by name, IP or ID" });

/** What the table shows now: the count it states, and its guest rows' names, sorted. */
async function tableNow(): Promise<{ count: string; names: string[] }> {
  const count = (await page.locator(".list-count").textContent()) ?? "";
  // Guest rows only: the header row has buttons too (sort), and group rows have no name cell.
  const rows = table()
    .locator("tbody tr")
    .filter({ has: page.locator(".vm-name") });
  const names = await rows.evaluateAll((elements) =>
    elements.map((row) => (row.querySelector(".vm-name")?.firstChild?.textContent ?? "").trim()),
  );
  return { count, names: names.sort() };
}

/**
 * The guests the table lists once it has settled on `expected`: its count reads that many, all
 * of its first page loaded, and its rows are those guests (given names) or that many (a count; a list
 * longer than the window renders at least 20 of them). The count alone is not enough: it can
 * read right while the rows are still the previous list's.
 */
async function listed(expected: number | readonly string[]): Promise<string[]> {
  const count = typeof expected === "number" ? expected : expected.length;
  const want = [...(typeof expected === "number" ? [] : expected)].sort();
  // The first page (80) is loaded at once; a longer list loads more as the table scrolls.
  const countText = new RegExp(`^${count} guests? \\(${Math.min(count, 80)} loaded\\)`);
  const now = await pollUntil(tableNow, ({ count: text, names }) => {
    if (!countText.test(text)) return false;
    if (typeof expected !== "number") return names.join("\n") === want.join("\n");
    return names.length === count || (count > names.length && names.length >= 20);
  });
  assert.match(now.count, countText, "the table's count");
  return now.names;
}

/** How many guests the API counts for a filter: what the page must show for the same one. */
async function apiCount(filter: Record<string, unknown>): Promise<number> {
  return page.evaluate(async (f) => {
    const response = await fetch("/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        query: "query($f: VirtualMachineFilter) { virtualMachines(filter: $f) { totalCount } }",
        variables: { f },
      }),
    });
    return (await response.json()).data.virtualMachines.totalCount as number;
  }, filter);
}

async function searchFor(term: string) {
  await searchBox().fill(term);
  await page.waitForURL((url) => url.searchParams.get("q") === term);
}

describe("finding guests on the Servers page", { timeout: 300_000 }, () => {
  before(async () => {
    api = await startApi();
    await completeSetup(api);
    browser = await launchChromium();
    const context = await browser.newContext({
      locale: "en-US",
      viewport: { width: 1600, height: 1000 },
    });
    context.setDefaultTimeout(20_000);
    page = await context.newPage();
    page.on("pageerror", (error) => pageErrors.push(error.message));
    await signIn(page, api.url, FIRST_ADMIN.username, FIRST_ADMIN.password);
    await page.getByText(`Signed in as ${FIRST_ADMIN.username}`).waitFor({ timeout: 60_000 });
    await syncDemoConnections(page, api.url);
  });

  after(async () => {
    await browser?.close();
    await api?.stop();
    assert.deepEqual(pageErrors, [], "no script errors on the page");
  });

  test("each search form finds its guests", async () => {
    // Each term and one guest it must find; the whole list must be the API's answer for it.
    const cases: [string, string][] = [
      ["10.10.0.0/24", "web-01"],
      ["2001:db8:10::/64", "web-01"],
      ["bc24.114a.1002", "web-02"],
      ["BC-24-11-4A-10-03", "db-01"],
      ["postgres", "db-01"],
      ["pve3", "k8s-worker-01"],
      ["esxi2.test", "db-01"],
      ["globex-vdc", "erp-app-01"],
      ["vm-1051", "db-01"],
    ];
    for (const [term, guest] of cases) {
      const names = await namesOn({ search: term });
      assert.ok(names.includes(guest), `${term} finds ${guest} in the API`);
      await searchFor(term);
      assert.deepEqual(await listed(names), names.sort(), `search ${term}`);
    }
    await searchBox().fill("10.0.0.0/33");
    await page.getByRole("alert").filter({ hasText: "prefix length" }).waitFor();
    await searchBox().fill("");
    await page.waitForURL((url) => !url.searchParams.has("q"));
  });

  test("each filter chip narrows the list, is in the address, and is removed by its button", async () => {
    const cases: [string, string, string, Record<string, unknown>][] = [
      ["Source", "vCenter", "source=VCENTER", { source: ["VCENTER"] }],
      ["Connection", "Demo Cloud Director", "connection=", { source: ["VCD"] }],
      ["State", "Stopped", "state=STOPPED", { state: ["STOPPED"] }],
      ["Kind", "Container", "kind=CONTAINER", { kind: ["CONTAINER"] }],
      ["Node", "pve1", "node=pve1", { nodeName: "pve1" }],
      ["Cluster", "my_cluster", "cluster=my_cluster", { clusterName: "my_cluster" }],
      ["Host", "esxi1.test", "host=esxi1.test", { hostName: "esxi1.test" }],
      ["Datacenter", "Lab", "datacenter=Lab", { datacenterName: "Lab" }],
      ["Organization", "acme", "org=acme", { orgName: "acme" }],
      ["VDC", "acme-prod", "vdc=acme-prod", { vdcName: "acme-prod" }],
      ["Tags", "k8s", "tag=k8s", { tags: ["k8s"] }],
      [
        "Confirmation",
        "Seen in the last sync",
        "confirmation=CONFIRMED",
        { confirmation: ["CONFIRMED"] },
      ],
    ];
    const everything = await apiCount({ isTemplate: false });
    for (const [filter, value, param, apiFilter] of cases) {
      await addFilter(page, filter, value);
      await page.waitForURL((url) => url.search.includes(param));
      const expected = await apiCount({ isTemplate: false, ...apiFilter });
      // After one sync every demo guest is confirmed: that chip must agree with the API, and
      // every other one must narrow the list.
      const narrows = filter === "Confirmation" || expected < everything;
      assert.ok(expected > 0 && narrows, `${filter} ${value} narrows the demo list`);
      await listed(expected);
      await page.getByRole("button", { name: `Remove filter: ${filter}` }).click();
      await page.waitForURL((url) => !url.search.includes(param));
      await listed(everything);
    }
  });

  test("guest OS, templates and removed guests are filters too, and survive a reload", async () => {
    const os = (await apiValues()).guestOses[0] ?? "";
    await addFilter(page, "Guest OS", os);
    await addFilter(page, "Removed guests", "Shown, with when and why");
    await addFilter(page, "Kind", "Template");
    await page.waitForURL((url) => url.searchParams.get("removed") === "include");
    const expected = await apiCount({ guestOs: os, includeRemoved: true, isTemplate: true });
    await page.reload();
    await listed(expected);
    for (const chip of ["Guest OS", "Removed guests", "Kind"]) {
      await page.getByRole("button", { name: `Remove filter: ${chip}` }).click();
    }
    await page.waitForURL((url) => url.search === "");
  });

  // docs/behaviour.md §9.43
  test("a chip of several values takes each value off on its own", async () => {
    await addFilter(page, "Kind", "Container");
    await addFilter(page, "Kind", "Template");
    await page.waitForURL((url) => url.searchParams.get("kind") === "CONTAINER,TEMPLATE");
    await page.getByRole("button", { name: "Remove Container from filter: Kind" }).click();
    await page.waitForURL((url) => url.searchParams.get("kind") === "TEMPLATE");
    await listed(await apiCount({ isTemplate: true }));
    await page.getByRole("button", { name: "Remove filter: Kind" }).click();

    await addFilter(page, "Connection", "Demo vCenter");
    await addFilter(page, "Connection", "Demo Cloud Director");
    await page.waitForURL((url) => url.searchParams.get("connection")?.includes(",") === true);
    await page.getByRole("button", { name: "Remove Demo vCenter from filter: Connection" }).click();
    await page.waitForURL(
      (url) =>
        url.searchParams.has("connection") && !url.searchParams.get("connection")?.includes(","),
    );
    await listed(await apiCount({ isTemplate: false, source: ["VCD"] }));
    await page
      .getByRole("button", { name: "Remove Demo Cloud Director from filter: Connection" })
      .waitFor({ state: "detached" });
    await page.getByRole("button", { name: "Remove filter: Connection" }).click();
    await page.waitForURL((url) => url.search === "");
  });

  test("every column header sorts the list on the server", async () => {
    for (const column of [
      "Name",
      "Source",
      "State",
      "Node / cluster or org / VDC / vApp",
      "IP addresses",
      "vCPU",
      "Memory",
      "Disk",
      "Connection",
      "Last seen",
    ]) {
      await table().locator("thead").getByRole("button", { name: column }).click();
      await page.waitForURL((url) => url.searchParams.get("sort") !== null || column === "Name");
    }
  });
});

async function apiValues(): Promise<{ guestOses: string[] }> {
  return page.evaluate(async () => {
    const response = await fetch("/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: "{ virtualMachineFacets { guestOses } }" }),
    });
    return (await response.json()).data.virtualMachineFacets;
  });
}

async function namesOn(filter: Record<string, unknown>): Promise<string[]> {
  return page.evaluate(async (f) => {
    const response = await fetch("/graphql", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        query:
          "query($f: VirtualMachineFilter) { virtualMachines(filter: $f, first: 500) { edges { node { name } } } }",
        variables: { f: { isTemplate: false, ...f } },
      }),
    });
    const data = (await response.json()).data;
    return data.virtualMachines.edges.map((e: { node: { name: string } }) => e.node.name);
  }, filter);
}

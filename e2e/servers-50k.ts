// Time to first render of the Servers page with 50,000 VMs in the database, in Debian's Chromium.
// Seeds through the sync engine like bench/inventory-list.ts, then measures from navigation to
// the first table row and to the figures, and checks the DOM holds only a window of rows after
// scrolling; then grouped by node (docs/behaviour.md §9.45): from navigation to the first group row,
// opening every group and scrolling through them to the end. Prints figures only.
// Run: npm run build -w @hyperlens/web && node --import tsx e2e/servers-50k.ts [count]
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { generateSecretKeyText } from "@hyperlens/db";
import type { NeutralVm } from "@hyperlens/shared";
import { createServices } from "../apps/api/src/app.ts";
import { loadConfig } from "../apps/api/src/config.ts";
import { startServer } from "../apps/api/src/http/server.ts";
import { createLogger } from "../apps/api/src/logger.ts";
import { createUser } from "../apps/api/src/services/users.ts";
import { neutralVm, seedConnection } from "../apps/api/src/testing/seed-inventory.ts";
import { launchChromium, signIn } from "./browser.ts";

const VMS = Number(process.argv[2] ?? 50_000);
const PASSWORD = "render-password-1234";

function vm(i: number): NeutralVm {
  return neutralVm(String(100 + i), {
    name: `guest-${String(i).padStart(5, "0")}`,
    cpuCount: 1 + (i % 16),
    memoryBytes: (1 + (i % 64)) * 1024 ** 3,
    location: { nodeName: `pve${i % 20}`, clusterName: "render" },
    ips: [
      {
        address: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
        origin: "AGENT",
        nicKey: "net0",
        isAccepted: true,
      },
    ],
  });
}

const dataDir = mkdtempSync(path.join(tmpdir(), "hl-render-"));
const config = {
  ...loadConfig({ HYPERLENS_DATA_DIR: dataDir, HYPERLENS_SECRET_KEY: generateSecretKeyText() }),
  host: "127.0.0.1",
  port: 0,
};
const services = await createServices(config, createLogger("error"));
try {
  const seeding = performance.now();
  for (let start = 0; start < VMS; start += 10_000) {
    const batch = Array.from({ length: Math.min(10_000, VMS - start) }, (_, i) => vm(start + i));
    await seedConnection(services, "PROXMOX", `render-${start}`, batch);
  }
  const seedSeconds = (performance.now() - seeding) / 1000;
  await createUser(
    services.prisma,
    { username: "render", password: PASSWORD, isAdmin: true },
    null,
  );
  const server = await startServer(services, config);
  const url = `http://localhost:${new URL(server.url).port}`;
  const browser = await launchChromium();
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    await signIn(page, url, "render", PASSWORD);
    await page.getByText("Signed in as render").waitFor({ timeout: 60_000 });

    const started = performance.now();
    await page.goto(`${url}/servers`);
    const firstRow = page.locator(".vm-table tbody tr").first();
    await firstRow.waitFor({ timeout: 60_000 });
    const firstRowMs = performance.now() - started;
    await page.getByText(/50,000 guests/).waitFor({ timeout: 60_000 });
    const countMs = performance.now() - started;

    const scroller = page.locator(".vm-scroller");
    for (let i = 0; i < 10; i++) {
      await scroller.evaluate((el) => el.scrollBy(0, el.scrollHeight));
      await page.waitForTimeout(150);
    }
    const loaded = await page.getByText(/loaded\)/).textContent();
    const domRows = await page.locator(".vm-table tbody tr").count();

    const groupedStart = performance.now();
    await page.goto(`${url}/servers?group=node`);
    const firstGroup = page.locator(".vm-table tbody tr.group-row").first();
    await firstGroup.waitFor({ timeout: 60_000 });
    const firstGroupMs = performance.now() - groupedStart;
    const groupCount = await page.locator(".vm-table tbody tr.group-row").count();
    // Open every group (20 nodes: all in view), then scroll through them all.
    const opening = performance.now();
    for (let i = 0; i < groupCount; i++) {
      // The last closed group first: an opened group's rows push the groups below it out of the
      // virtualised window, never the ones above. A DOM click: rows re-render under the pointer.
      await page
        .locator(".vm-table tbody tr.group-row button[aria-expanded=false]")
        .last()
        .evaluate((button: HTMLButtonElement) => button.click());
    }
    await page.locator(".vm-table tbody tr:not(.group-row) button.link").first().waitFor();
    const openMs = performance.now() - opening;
    const scrolling = performance.now();
    let scrolls = 0;
    let groupsSeen = new Set<string>();
    while (scrolls < 5000) {
      const atEnd = await scroller.evaluate((el) => {
        el.scrollBy(0, 4 * el.clientHeight);
        return el.scrollTop + el.clientHeight >= el.scrollHeight - 1;
      });
      scrolls++;
      await page.waitForTimeout(20);
      const names = await page
        .locator(".vm-table tbody tr.group-row .group-name")
        .allTextContents();
      groupsSeen = new Set([...groupsSeen, ...names]);
      const pending = await page.getByText("Loading…").count();
      if (atEnd && pending === 0) break;
    }
    const scrollMs = performance.now() - scrolling;
    const groupedDomRows = await page.locator(".vm-table tbody tr").count();
    console.log(
      [
        `Servers page with ${VMS} VMs on ${services.db.kind} (seeded in ${seedSeconds.toFixed(1)} s)`,
        `  navigation → first table row: ${firstRowMs.toFixed(0)} ms; → total count shown: ${countMs.toFixed(0)} ms`,
        `  after 10 scrolls to the end: ${loaded}; rows in the DOM: ${domRows}`,
        `  grouped by node: navigation → first group row: ${firstGroupMs.toFixed(0)} ms (${groupCount} groups)`,
        `  opening every group → first guest row: ${openMs.toFixed(0)} ms`,
        `  scrolling through ${groupsSeen.size} open groups to the end (every row loaded): ${scrolls} scrolls in ${(scrollMs / 1000).toFixed(1)} s; rows in the DOM: ${groupedDomRows}`,
      ].join("\n"),
    );
  } finally {
    await browser.close();
    await server.close();
  }
} finally {
  await services.db.close();
  rmSync(dataDir, { recursive: true, force: true });
}

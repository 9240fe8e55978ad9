// `npm run bench`: every benchmark, one after another; each prints its own figures.
import { benchInventoryList } from "./inventory-list.ts";
import { benchProxmoxSync } from "./proxmox-sync.ts";
import { benchStartup } from "./startup.ts";
import { benchVcdSync } from "./vcd-sync.ts";

await benchStartup();
await benchProxmoxSync();
await benchVcdSync();
await benchInventoryList();

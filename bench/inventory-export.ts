// The inventory exports over 50,000 VMs (docs/behaviour.md §14.10, §14.15): GET /inventory/ansible
// and GET /sd/prometheus from a Hyperlens server in its own process (the VMs, each with two NICs
// and three addresses, seeded through the sync engine before it starts) — time per full response,
// and how far the server's resident set grows above idle while it answers (its peak, reset before
// each request through /proc/<pid>/clear_refs) and its V8 heap after (from /metrics).
import { readFileSync, writeFileSync } from "node:fs";
import type { NeutralVm } from "@hyperlens/shared";
import { neutralVm, seedConnection } from "../apps/api/src/testing/seed-inventory.ts";
import { prepareDatabase } from "./bench-database.ts";
import type { Figure } from "./figures.ts";
import { startHyperlens } from "./hyperlens-process.ts";
import { settings } from "./settings.ts";

const ROLES = ["web", "api", "db", "cache", "k8s-worker", "ci", "mail", "vpn", "mon", "files"];
const TARGET_MS = 1000;
const TARGET_GROWTH_MB = 100;

const hex = (n: number) => (n & 255).toString(16).padStart(2, "0");
const mac = (prefix: number, connection: number, i: number) =>
  ["bc", "24", hex(prefix), hex(connection), hex(i >> 8), hex(i)].join(":");

function vm(i: number, connection: number): NeutralVm {
  const octets = `${(i >> 8) & 255}.${i & 255}`;
  return neutralVm(String(100 + i), {
    // Every tenth name is borne by a guest of another connection too: host names collide.
    name: `${ROLES[i % ROLES.length]}-${String(i % 10 === 0 ? i : i + connection * 1_000_000).padStart(7, "0")}`,
    state: i % 7 === 0 ? "STOPPED" : "RUNNING",
    cpuCount: 1 + (i % 16),
    memoryBytes: (1 + (i % 64)) * 1024 ** 3,
    guestOs: i % 5 === 0 ? "win2022" : "l26",
    tags: [ROLES[i % ROLES.length] ?? "x", i % 3 === 0 ? "prod" : "dev"],
    location: { nodeName: `pve${i % 20}`, clusterName: `bench-${connection}` },
    nics: [
      { key: "net0", mac: mac(0x10, connection, i) },
      { key: "net1", mac: mac(0x11, connection, i) },
    ],
    ips: [
      { address: `10.${connection}.${octets}`, origin: "AGENT", nicKey: "net0", isAccepted: true },
      { address: `172.16.${octets}`, origin: "AGENT", nicKey: "net1", isAccepted: true },
      {
        address: `fd00:${connection}::${i.toString(16)}`,
        origin: "AGENT",
        nicKey: "net0",
        isAccepted: true,
      },
    ],
  });
}

function statusKb(pid: number, field: "VmRSS" | "VmHWM"): number {
  const kb = new RegExp(`^${field}:\\s+(\\d+) kB$`, "m").exec(
    readFileSync(`/proc/${pid}/status`, "utf8"),
  )?.[1];
  return Number(kb);
}

/** The process's CPU time so far (user + system), in ms: a figure the machine's load skews less. */
function cpuMs(pid: number): number {
  // Fields 14 and 15 of /proc/<pid>/stat, after the command name in parentheses; clock ticks of 10 ms.
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.split(" ") ?? [];
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

async function heapUsedMb(url: string): Promise<number> {
  const text = await (await fetch(`${url}/metrics`)).text();
  const bytes = /^nodejs_heap_size_used_bytes (\S+)$/m.exec(text)?.[1];
  return Number(bytes) / 1024 ** 2;
}

function median0(values: number[]): number {
  return [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;
}

/** Runs the export scenario and returns its figures. */
export async function benchInventoryExport(): Promise<Figure[]> {
  const vms = settings.exportVms;
  let seedSeconds = 0;
  const db = await prepareDatabase(async (services) => {
    const seeded = performance.now();
    for (let start = 0, c = 0; start < vms; start += 10_000, c++) {
      const batch = Array.from({ length: Math.min(10_000, vms - start) }, (_, i) =>
        vm(start + i, c),
      );
      await seedConnection(services, "PROXMOX", `bench-${c}`, batch);
    }
    seedSeconds = (performance.now() - seeded) / 1000;
  });
  try {
    const server = await startHyperlens({
      env: db.env,
      runtime: settings.runtime,
      logFile: `${db.dir}/hyperlens.log`,
    });
    try {
      const figures: Figure[] = [];
      const routes = {
        "GET /inventory/ansible": "/inventory/ansible",
        "GET /sd/prometheus?port=9100": "/sd/prometheus?port=9100",
      };
      for (const [label, route] of Object.entries(routes)) {
        const times: number[] = [];
        const growths: number[] = [];
        const cpuTimes: number[] = [];
        let bytes = 0;
        let heapAfter = 0;
        // One untimed request first: query shapes compiled, pool sessions open, as in use.
        for (let run = 0; run <= settings.exportRuns; run++) {
          const idleKb = statusKb(server.pid, "VmRSS");
          const cpuBefore = cpuMs(server.pid);
          writeFileSync(`/proc/${server.pid}/clear_refs`, "5"); // resets VmHWM to the current RSS
          const started = performance.now();
          const res = await fetch(`${server.url}${route}`, {
            headers: { authorization: `Bearer ${db.token}` },
          });
          const body = await res.text();
          if (res.status !== 200) throw new Error(`${label}: ${res.status} ${body.slice(0, 200)}`);
          if (run === 0) continue;
          times.push(performance.now() - started);
          cpuTimes.push(cpuMs(server.pid) - cpuBefore);
          growths.push((statusKb(server.pid, "VmHWM") - idleKb) / 1024);
          bytes = body.length;
          heapAfter = await heapUsedMb(server.url);
        }
        times.sort((a, b) => a - b);
        const median = median0(times);
        const growth = Math.max(...growths);
        const name = `${label} over ${vms.toLocaleString("en-US")} VMs`;
        figures.push(
          {
            scenario: name,
            figure: "full response, median",
            value: median,
            unit: "ms",
            target: `< ${TARGET_MS} ms`,
            isMet: median < TARGET_MS,
            note: `${(bytes / 1024 ** 2).toFixed(1)} MB; ${times.length} runs on ${db.kind}, slowest ${times.at(-1)?.toFixed(0)} ms; server CPU per response ${median0(cpuTimes).toFixed(0)} ms (median); seeded in ${seedSeconds.toFixed(1)} s`,
          },
          {
            scenario: name,
            figure: "RSS growth above idle, worst run",
            value: growth,
            unit: "MB",
            target: `< ${TARGET_GROWTH_MB} MB`,
            isMet: growth < TARGET_GROWTH_MB,
            note: `V8 heap used after the last run ${heapAfter.toFixed(0)} MB; server peak RSS ${server.peakRssMb().toFixed(0)} MB`,
          },
        );
      }
      return figures;
    } finally {
      await server.stop();
    }
  } finally {
    await db.close();
  }
}

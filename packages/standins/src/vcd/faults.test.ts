import { describe, expect, it } from "vitest";
import { closedAfterEach } from "../testing/closed-after-each.ts";
import { call } from "../testing/https-client.ts";
import { createVcdStandin } from "../testing/standins.ts";
import { vcdGet, vcdLogin } from "../testing/vcd-client.ts";
import { DEMO_IDS } from "./demo-director.ts";

const start = closedAfterEach(createVcdStandin);

describe("faults, writes and the request log", () => {
  it("fails the second query page only, then recovers", async () => {
    const s = await start();
    const token = await vcdLogin(s);
    const handle = s.faults.fail("/api/query", 503, { nth: 2 });
    expect((await vcdGet(s, "/api/query?type=vm&page=1", token)).status).toBe(200);
    expect((await vcdGet(s, "/api/query?type=vm&page=2", token)).status).toBe(503);
    expect((await vcdGet(s, "/api/query?type=vm&page=2", token)).status).toBe(200);
    expect([handle.matched, handle.fired]).toEqual([3, 1]);
    expect(s.requests.filter((r) => r.fault).map((r) => r.query)).toEqual(["type=vm&page=2"]);
  });

  it("truncates a per-VM section, serves an HTML page, resets, and hangs until the client gives up", async () => {
    const s = await start();
    const token = await vcdLogin(s);
    const section = `/api/vApp/vm-${DEMO_IDS.vmWeb01}/networkConnectionSection/`;
    s.faults.truncate("/api/vApp/*/networkConnectionSection/", { times: 1 });
    const cut = await vcdGet(s, section, token);
    expect(cut.body).not.toContain("</NetworkConnectionSection>");
    s.faults.html("/cloudapi/1.0.0/edgeGateways", { times: 1 });
    expect((await vcdGet(s, "/cloudapi/1.0.0/edgeGateways", token)).body).toContain("<html>");
    s.faults.reset("/api/vApp/**", { times: 1 });
    await expect(vcdGet(s, section, token)).rejects.toThrow(/ECONNRESET|socket hang up/);
    s.faults.hang("/api/query", { times: 1 });
    await expect(
      call(`${s.url}/api/query?type=vm`, {
        ca: s.caPem,
        timeoutMs: 100,
        headers: { Authorization: `Bearer ${token}`, Accept: "application/*+xml;version=38.0" },
      }),
    ).rejects.toThrow(/client timeout/);
  });

  it("refuses and records every write except login and logout", async () => {
    const s = await start();
    const token = await vcdLogin(s);
    const send = (method: string, path: string, bearer = true) =>
      call(`${s.url}${path}`, {
        method,
        ca: s.caPem,
        headers: {
          ...(bearer ? { Authorization: `Bearer ${token}` } : {}),
          Accept: "application/*+xml;version=38.0",
        },
        body: method === "GET" ? undefined : "",
      });
    expect(
      (await send("POST", `/api/vApp/vm-${DEMO_IDS.vmWeb01}/power/action/powerOff`)).status,
    ).toBe(403);
    expect((await send("DELETE", `/api/vApp/vm-${DEMO_IDS.vmWeb01}`)).status).toBe(403);
    expect((await send("PUT", "/cloudapi/1.0.0/edgeGateways/x", false)).status).toBe(401);
    expect(s.writeAttempts.map((w) => `${w.method} ${w.status}`)).toEqual([
      "POST 403",
      "DELETE 403",
      "PUT 401",
    ]);
    expect(s.model.vm(DEMO_IDS.vmWeb01)?.status).toBe("POWERED_ON");
  });

  it("counts requests per route and honours the worker limit and global latency", async () => {
    const s = await start({ maxWorkers: 2, latencyMs: 20 });
    const token = await vcdLogin(s);
    await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        vcdGet(s, `/api/query?type=vm&page=${i + 1}&pageSize=1`, token),
      ),
    );
    expect(s.workers.peakInUse).toBe(2);
    expect(s.stats.byRoute["GET /api/query?type=vm"]).toBe(6);
    expect(s.stats.byRoute["POST /cloudapi/1.0.0/sessions"]).toBe(1);
  });
});

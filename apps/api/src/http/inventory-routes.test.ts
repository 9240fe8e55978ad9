// docs/behaviour.md §14.12, §14.15, §14.17–§14.19: the export routes over HTTP — who may read them,
// what a bad parameter gets, what each caller sees, and when Prometheus is told nothing changed.
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type InventoryWorld, startInventoryWorld } from "../testing/inventory-world.ts";

const ROOT = path.resolve(import.meta.dirname, "../../../..");

let world: InventoryWorld;
let token: string;

beforeAll(async () => {
  world = await startInventoryWorld();
  token = await world.token(["VIEW_INVENTORY"]);
}, 120_000);

afterAll(async () => world?.close());

function get(pathAndQuery: string, headers: Record<string, string> = {}) {
  return fetch(`${world.app.url}${pathAndQuery}`, { headers });
}

const bearer = (t: string) => ({ authorization: `Bearer ${t}` });

type Inventory = { _meta: { hostvars: Record<string, Record<string, unknown>> } };
type TargetGroup = { targets: string[]; labels: Record<string, string> };

describe("who may read the exports (§14.18)", () => {
  it.each(["/inventory/ansible", "/sd/prometheus"])(
    "%s: 401 without or with a bad token, 403 without VIEW_INVENTORY",
    async (route) => {
      const anonymous = await get(route);
      expect(anonymous.status).toBe(401);
      expect((await anonymous.json()).errors[0]).toMatchObject({
        message: expect.stringMatching(/Authorization: Bearer/),
        extensions: { code: "UNAUTHENTICATED" },
      });
      const wrong = await get(route, bearer("hlk_not-a-token"));
      expect(wrong.status).toBe(401);
      expect((await wrong.json()).errors[0].message).toMatch(/not valid/);
      const syncOnly = await world.token(["RUN_SYNC"]);
      const forbidden = await get(route, bearer(syncOnly));
      expect(forbidden.status).toBe(403);
      expect((await forbidden.json()).errors[0]).toMatchObject({
        message: expect.stringMatching(/VIEW_INVENTORY/),
        extensions: { code: "FORBIDDEN" },
      });
    },
  );

  it("a signed-in session's cookie will do", async () => {
    const cookie = await world.app.signedInAs("browser-user");
    const res = await get("/inventory/ansible", { cookie });
    expect(res.status).toBe(200);
    expect(Object.keys(((await res.json()) as Inventory)._meta.hostvars).length).toBeGreaterThan(0);
  });

  it("a session that must change its password may not read them", async () => {
    const cookie = await world.app.signedInAs("reset-user");
    await world.app.services.prisma.user.update({
      where: { username: "reset-user" },
      data: { mustChangePassword: true },
    });
    const res = await get("/inventory/ansible", { cookie });
    expect(res.status).toBe(403);
    expect((await res.json()).errors[0].message).toMatch(/new password/);
  });

  it("the token without its scheme, as Prometheus' discovery sends it, will do", async () => {
    expect((await get("/sd/prometheus", { authorization: token })).status).toBe(200);
  });
});

describe("bad parameters (§14.12)", () => {
  it.each([
    ["state=BOGUS", "state", /BOGUS is not one of RUNNING/],
    ["source=proxmox,xen", "source", /XEN/],
    [`search=${"x".repeat(201)}`, "search", /at most 200 characters/],
    ["colour=blue", "colour", /Unknown parameter colour/],
    ["includeRemoved=true", "includeRemoved", /never removed ones/],
    ["connectionId=nope", "connectionId", /not a connection id/],
    ["prefer=ipv5", "prefer", /ipv4 or ipv6/],
    ["subnet=10.0.0.0/33", "subnet", /CIDR/],
    ["nodeName=a&nodeName=b", "nodeName", /at most once/],
    ["isTemplate=yes", "isTemplate", /true or false/],
    ["isTemplate=true&isTemplate=false", "isTemplate", /true or false/],
  ])("?%s is refused naming %s", async (query, parameter, message) => {
    for (const route of ["/inventory/ansible", "/sd/prometheus"]) {
      const res = await get(`${route}?${query}`, bearer(token));
      expect(res.status).toBe(400);
      expect((await res.json()).errors[0]).toMatchObject({
        message: expect.stringMatching(message),
        extensions: { code: "BAD_USER_INPUT", parameter },
      });
    }
  });

  it("?port= is Prometheus' only, and must be a port", async () => {
    expect((await get("/sd/prometheus?port=0", bearer(token))).status).toBe(400);
    expect((await get("/sd/prometheus?port=9100x", bearer(token))).status).toBe(400);
    const ansible = await get("/inventory/ansible?port=9100", bearer(token));
    expect((await ansible.json()).errors[0].extensions.parameter).toBe("port");
  });
});

describe("templates (§14.12)", () => {
  it("?isTemplate=false leaves templates out and ?isTemplate=true lists them alone, as the list does", async () => {
    const { prisma } = world.app.services;
    const template = await prisma.virtualMachine.findFirstOrThrow({ where: { removedAt: null } });
    await prisma.virtualMachine.update({ where: { id: template.id }, data: { isTemplate: true } });
    try {
      const names = async (query: string) => {
        const res = await get(`/inventory/ansible${query}`, bearer(token));
        const hosts = Object.values(((await res.json()) as Inventory)._meta.hostvars);
        return hosts.map((h) => h.hyperlens_id);
      };
      const all = await names("");
      const machines = await names("?isTemplate=false");
      const templates = await names("?isTemplate=true");
      const templateCount = await prisma.virtualMachine.count({
        where: { removedAt: null, isTemplate: true },
      });
      expect(templateCount).toBeGreaterThan(0);
      expect(templates).toHaveLength(templateCount);
      expect(machines).toHaveLength(all.length - templateCount);
      expect(machines.some((id) => templates.includes(id))).toBe(false);
    } finally {
      await prisma.virtualMachine.update({
        where: { id: template.id },
        data: { isTemplate: false },
      });
    }
  });
});

describe("what each caller sees (§14.19)", () => {
  it("a user granted one connection's group sees its guests only, named as if no other existed", async () => {
    const { prisma } = world.app.services;
    const cookie = await world.app.signedInAs("pve-b-only");
    const group = await prisma.connectionGroup.create({
      data: {
        name: "only pve-b",
        connections: { create: { connectionId: world.connections["pve-b"] } },
      },
    });
    await prisma.user.update({
      where: { username: "pve-b-only" },
      data: { allConnections: false, groupGrants: { create: { groupId: group.id } } },
    });
    const res = await get("/inventory/ansible", { cookie });
    const inventory = (await res.json()) as Inventory;
    const hosts = Object.values(inventory._meta.hostvars);
    const pveB = await prisma.virtualMachine.count({
      where: { removedAt: null, connectionId: world.connections["pve-b"] },
    });
    expect(hosts.length).toBe(pveB);
    expect(new Set(hosts.map((h) => h.hyperlens_connection))).toEqual(new Set(["pve-b"]));
    // The web-01s of connections this user does not see leave no trace in the name.
    expect(inventory._meta.hostvars["web-01"]?.hyperlens_connection).toBe("pve-b");
    const sd = (await (await get("/sd/prometheus", { cookie })).json()) as TargetGroup[];
    expect(new Set(sd.map((g) => g.labels.__meta_hyperlens_connection))).toEqual(
      new Set(["pve-b"]),
    );
  });
});

describe("Prometheus' targets (§14.15, §14.17)", () => {
  it("lists running guests unless ?state= says otherwise; IPv6 targets are bracketed", async () => {
    const running = (await (await get("/sd/prometheus", bearer(token))).json()) as TargetGroup[];
    expect(new Set(running.map((g) => g.labels.__meta_hyperlens_state))).toEqual(
      new Set(["RUNNING"]),
    );
    // Stopped Proxmox guests keep only last-known addresses; suspended Director VMs keep theirs.
    const other = (await (
      await get("/sd/prometheus?state=STOPPED,SUSPENDED", bearer(token))
    ).json()) as TargetGroup[];
    expect(other.length).toBeGreaterThan(0);
    expect(new Set(other.map((g) => g.labels.__meta_hyperlens_state))).toEqual(
      new Set(["SUSPENDED"]),
    );
    const v6 = (await (
      await get("/sd/prometheus?prefer=ipv6&port=9100&port=9256", bearer(token))
    ).json()) as TargetGroup[];
    const web = v6.filter(
      (g) =>
        g.labels.__meta_hyperlens_vm_name === "web-01" &&
        g.labels.__meta_hyperlens_connection === "pve-a",
    );
    expect(web.map((g) => g.targets)).toEqual([
      ["[2001:db8:10::11]:9100"],
      ["[2001:db8:10::11]:9256"],
    ]);
  });

  it("answers 304 while what the query lists is unchanged, and a new tag once a sync changed it", async () => {
    const first = await get("/sd/prometheus?port=9100", bearer(token));
    const etag = first.headers.get("etag") ?? "";
    expect(etag).toMatch(/^".+"$/);
    const same = await get("/sd/prometheus?port=9100", { ...bearer(token), "if-none-match": etag });
    expect(same.status).toBe(304);
    expect(await same.text()).toBe("");
    // Another query is another list.
    const other = await get("/sd/prometheus?port=9101", bearer(token));
    expect(other.headers.get("etag")).not.toBe(etag);
    // A sync that changes nothing keeps the tag.
    await world.syncAll();
    const unchanged = await get("/sd/prometheus?port=9100", {
      ...bearer(token),
      "if-none-match": etag,
    });
    expect(unchanged.status).toBe(304);
    world.proxmox.cluster.rename(110, "k8s-cp-renamed");
    await world.syncAll();
    const changed = await get("/sd/prometheus?port=9100", {
      ...bearer(token),
      "if-none-match": etag,
    });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("etag")).not.toBe(etag);
    const groups = (await changed.json()) as TargetGroup[];
    expect(groups.map((g) => g.labels.__meta_hyperlens_vm_name)).toContain("k8s-cp-renamed");
  });

  it("a guest stopped by a sync changes the tag, though it leaves the list", async () => {
    const before = (await get("/sd/prometheus", bearer(token))).headers.get("etag") ?? "";
    world.proxmox.cluster.setStatus(102, "stopped");
    await world.syncAll();
    const after = await get("/sd/prometheus", { ...bearer(token), "if-none-match": before });
    expect(after.status).toBe(200);
    const groups = (await after.json()) as TargetGroup[];
    const proxmox = groups.filter((g) => g.labels.__meta_hyperlens_source === "PROXMOX");
    expect(proxmox.map((g) => g.labels.__meta_hyperlens_vm_name)).not.toContain("db-01");
  });
});

describe("the export streams (§14.10)", () => {
  it("is sent in chunks, not as one buffered body", async () => {
    const res = await get("/inventory/ansible", bearer(token));
    expect(res.headers.get("transfer-encoding")).toBe("chunked");
    expect(res.headers.get("content-length")).toBeNull();
    await res.text();
  });
});

describe("the launcher (§14.14)", () => {
  it("says what to set when HYPERLENS_URL or HYPERLENS_TOKEN is missing", async () => {
    const failure = await promisify(execFile)(
      path.join(ROOT, "bin/hyperlens-inventory"),
      ["--list"],
      {
        env: { PATH: process.env.PATH },
      },
    ).catch((error: { code: number; stderr: string }) => error);
    expect(failure).toMatchObject({ code: 1, stderr: expect.stringMatching(/Set HYPERLENS_URL/) });
  });
});

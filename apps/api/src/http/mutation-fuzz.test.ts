// Hostile input on every mutation, over real HTTP (issue 8). The mutations and their argument types
// are read from the built schema, so a new mutation is fuzzed without touching this file. Each
// generated request goes out as the web app sends it (session cookie, JSON) or as an integrator
// does (Bearer token), or in a broken form (bad JSON, wrong content type, GET, PUT); every answer
// must be well-formed GraphQL JSON with a listed error code and no 5xx, stack or path (see
// fuzz/response-oracle.ts). Afterwards the server still answers and the database is consistent.
//
// Runs: HYPERLENS_FUZZ_RUNS (default below). A failure prints HYPERLENS_PROPERTY_SEED and
// HYPERLENS_PROPERTY_PATH to replay it (apps/api/src/testing/property-harness.ts).

import { readFileSync } from "node:fs";
import {
  createProxmoxStandin,
  DEFAULT_TOKEN,
  type ProxmoxStandin,
  proxmoxNode,
} from "@hyperlens/standins/testing";
import { encodeGlobalID } from "@pothos/plugin-relay";
import fc from "fast-check";
import { buildSchema } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createSession, SESSION_COOKIE } from "../auth/sessions.ts";
import { schema } from "../schema/index.ts";
import { saveConnection } from "../services/connections.ts";
import { expectConsistentDatabase } from "../testing/fuzz/database-consistency.ts";
import { mutationRequests } from "../testing/fuzz/mutation-requests.ts";
import { responseProblems } from "../testing/fuzz/response-oracle.ts";
import { type FuzzCredentials, toWire } from "../testing/fuzz/wire.ts";
import { checkAsyncProperty } from "../testing/property-harness.ts";
import { startTestApp, type TestApp } from "../testing/test-app.ts";

const RUNS = (() => {
  const value = Number(process.env.HYPERLENS_FUZZ_RUNS);
  return Number.isInteger(value) && value > 0 ? value : 300;
})();

let app: TestApp;
let standin: ProxmoxStandin;
let adminId: string;
let token: string;
const realIds: string[] = [];

beforeAll(async () => {
  app = await startTestApp();
  standin = await createProxmoxStandin({
    cluster: { name: "lab", nodes: [proxmoxNode({ name: "pve1" }, 0)], guests: [] },
  });
  await app.signedInAs("admin", { isAdmin: true });
  const admin = await app.services.prisma.user.findUniqueOrThrow({ where: { username: "admin" } });
  adminId = admin.id;
  const cookie = await sessionCookie();
  const created = await app.graphql<{
    a: { data: { token: string } };
    b: { data: { apiToken: { id: string } } };
  }>(
    `mutation($caps: [Capability!]!) {
      a: createApiToken(name: "fuzz", capabilities: $caps) { ... on MutationCreateApiTokenSuccess { data { token } } }
      b: createApiToken(name: "victim", capabilities: [VIEW_INVENTORY]) { ... on MutationCreateApiTokenSuccess { data { apiToken { id } } } }
    }`,
    { caps: ["VIEW_INVENTORY", "MANAGE_PROXMOX", "MANAGE_VCD", "MANAGE_VCENTER", "MANAGE_USERS"] },
    { cookie },
  );
  const data = created.body.data;
  if (!data) throw new Error(`token setup failed: ${JSON.stringify(created.body)}`);
  token = data.a.data.token;
  realIds.push(data.b.data.apiToken.id);
  const [user, tokenId] = DEFAULT_TOKEN.id.split("!");
  const connections = [
    { kind: "PROXMOX" as const, name: "stand-in", url: standin.url, tokenId },
    { kind: "VCENTER" as const, name: "closed port", url: "https://127.0.0.1:1", tokenId: null },
  ];
  for (const c of connections) {
    const saved = await saveConnection(
      app.services.prisma,
      app.services.secrets,
      c.kind,
      {
        name: c.name,
        url: c.url,
        caPem: standin.caPem,
        username: c.kind === "PROXMOX" ? (user ?? "") : "reader@vsphere.local",
        tokenId: c.tokenId,
        secret: DEFAULT_TOKEN.secret,
      },
      null,
      app.services.targetPolicy,
    );
    realIds.push(encodeGlobalID("Connection", saved.id));
  }
}, 120_000);

afterAll(async () => {
  await standin?.close();
  await app?.close();
});

/** "400 BAD_USER_INPUT", "200 ValidationError", "200 data": how an answer is counted in the figures. */
function outcomeOf(response: { status: number; text: string }): string {
  const code = /"code":"([A-Z_]+)"/.exec(response.text)?.[1];
  const typename = /"__typename":"(\w+)"/.exec(response.text)?.[1];
  return `${response.status} ${code ?? typename ?? "data"}`;
}

/** A fresh session of the administrator (a generated signOut may have ended the last one). */
async function sessionCookie(): Promise<string> {
  const { secret } = await createSession(app.services.prisma, adminId, app.services.sessionPolicy);
  return `${SESSION_COOKIE}=${secret}`;
}

describe("hostile input on every mutation", () => {
  it("generates requests for every mutation of the committed schema", () => {
    const printed = buildSchema(
      readFileSync(new URL("../../schema.graphql", import.meta.url), "utf8"),
    );
    const hints = { realIds: ["x"], urls: ["https://x"], caPem: "" };
    const { names, requests } = mutationRequests(schema, hints);
    expect([...names].sort()).toEqual(
      Object.keys(printed.getMutationType()?.getFields() ?? {}).sort(),
    );
    const sampled = new Set(fc.sample(requests, { numRuns: 1000, seed: 8 }).map((r) => r.mutation));
    expect([...sampled].sort()).toEqual([...names].sort());
  });

  it(
    "answers every generated request with well-formed GraphQL JSON and no 5xx, stack or path; then still works",
    async () => {
      const { requests } = mutationRequests(schema, {
        realIds,
        urls: [standin.url, "https://127.0.0.1:1"],
        caPem: standin.caPem,
      });
      const seen = new Map<string, number>();
      const outcomes = new Map<string, number>();
      await checkAsyncProperty(
        fc.asyncProperty(requests, async (request) => {
          seen.set(request.mutation, (seen.get(request.mutation) ?? 0) + 1);
          const credentials: FuzzCredentials = { cookie: await sessionCookie(), token };
          const wire = toWire(request, app.url, credentials);
          const res = await fetch(wire.url, {
            method: wire.method,
            headers: wire.headers,
            body: wire.body,
          });
          const response = {
            status: res.status,
            contentType: res.headers.get("content-type") ?? "",
            text: await res.text(),
          };
          outcomes.set(outcomeOf(response), (outcomes.get(outcomeOf(response)) ?? 0) + 1);
          const problems = responseProblems(request, wire, response);
          if (problems.length > 0) {
            throw new Error(
              `${problems.join("; ")}\n${wire.method} ${request.encoding} as ${request.auth}: ${request.query.slice(0, 500)}\n→ ${response.status} ${response.text.slice(0, 1000)}`,
            );
          }
        }),
        RUNS,
        false,
      );
      console.info(
        `mutation fuzz: ${[...seen.values()].reduce((a, b) => a + b, 0)} requests over ${seen.size} mutations`,
        Object.fromEntries(seen),
        "answers (HTTP status, first error code):",
        Object.fromEntries([...outcomes].sort((a, b) => b[1] - a[1])),
      );

      const after = await app.graphql<{ viewer: { username: string } }>(
        "{ viewer { username } }",
        {},
        { cookie: await sessionCookie() },
      );
      expect(after.status).toBe(200);
      expect(after.body.data?.viewer.username).toBe("admin");
      expect((await fetch(`${app.url}/readyz`)).status).toBe(200);

      await app.services.syncs.drain(30_000);
      await expectConsistentDatabase(app.services);
    },
    90_000 + RUNS * 250,
  );
});

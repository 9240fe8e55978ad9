// A stored secret goes only where, and as whom, it was entered for: re-pointing a connection
// (address, user, Proxmox token id, Director org) or loosening how its server is recognised
// (TLS verification off, another CA certificate) needs the secret again.
import { createTestCertificates } from "@hyperlens/hyper-http/testing";
import { type ConnectionKind, SECRET_PLACEHOLDER } from "@hyperlens/shared";
import {
  createProxmoxStandin,
  createVcdStandin,
  createVcenterStandin,
  DEFAULT_TOKEN,
  DEFAULT_VCD_USERS,
  DEFAULT_VCENTER_USERS,
  generateCluster,
  type StandinServer,
  type StandinTls,
  standinTls,
  startStandinServer,
} from "@hyperlens/standins/testing";
import { encodeGlobalID } from "@pothos/plugin-relay";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { saveStandinConnection } from "../testing/standin-connections.ts";
import { startTestAppAsAdmin, type TestApp } from "../testing/test-app.ts";
import { testConnection } from "./connection-test.ts";

/** Every request a listener received, with its headers and body (Basic credentials decoded). */
interface ListenerLog {
  server: StandinServer;
  seen: string[];
}

/**
 * A real HTTPS listener that answers 401 to everything and records it all; on the stand-ins' CA
 * unless given another certificate.
 */
/** A connection row as stored, with its secret opened (what a later Test would present). */
async function storedWithSecret(id: string) {
  const stored = await app.services.prisma.connection.findUniqueOrThrow({
    where: { id },
    include: { secret: true },
  });
  return { stored, storedSecret: app.services.secrets.open(stored.secret?.ciphertext ?? "", id) };
}

async function startListener(tls?: StandinTls): Promise<ListenerLog> {
  const seen: string[] = [];
  const server = await startStandinServer({
    tls: tls ?? (await standinTls()),
    handle: (request) => {
      const auth = String(request.headers.authorization ?? "");
      const basic = auth.startsWith("Basic ")
        ? Buffer.from(auth.slice(6), "base64").toString("utf8")
        : "";
      seen.push(
        `${request.method} ${request.path} ${JSON.stringify(request.headers)} ${basic} ${request.body}`,
      );
      return { status: 401, body: "{}", headers: { "Content-Type": "application/json" } };
    },
  });
  return { server, seen };
}

const SAVE: Record<ConnectionKind, string> = {
  PROXMOX: "saveProxmoxConnection(input: $input)",
  VCD: "saveVcdConnection(input: $input)",
  VCENTER: "saveVcenterConnection(input: $input)",
};
const INPUT: Record<ConnectionKind, string> = {
  PROXMOX: "ProxmoxConnectionInput",
  VCD: "VcdConnectionInput",
  VCENTER: "VcenterConnectionInput",
};

type SaveResult = {
  result: { __typename: string; problems?: { field: string | null; message: string }[] };
};

const provider = DEFAULT_VCD_USERS.find((u) => u.role === "provider");
const vcenterUser = DEFAULT_VCENTER_USERS[0];
const [tokenUser = "", tokenName = ""] = DEFAULT_TOKEN.id.split("!");

/** Per kind: the stored login, and an edit of the user (or org, or token id) that re-targets it. */
const KINDS: {
  kind: ConnectionKind;
  secret: string;
  login: Record<string, string>;
  otherLogins: Record<string, string>[];
}[] = [
  {
    kind: "PROXMOX",
    secret: DEFAULT_TOKEN.secret,
    login: { username: tokenUser, tokenId: tokenName },
    otherLogins: [
      { username: "someone@pve", tokenId: tokenName },
      { username: tokenUser, tokenId: "another-token" },
      { username: tokenUser, tokenId: "" },
    ],
  },
  {
    kind: "VCD",
    secret: provider?.password ?? "",
    login: { username: `${provider?.user}@${provider?.org}` },
    // The org names the tenant the password is presented to.
    otherLogins: [{ username: `${provider?.user}@acme` }, { username: `other@${provider?.org}` }],
  },
  {
    kind: "VCENTER",
    secret: vcenterUser?.password ?? "",
    login: { username: vcenterUser?.user ?? "" },
    otherLogins: [{ username: "administrator@vsphere.local" }],
  },
];

let app: TestApp;
let admin: string;
let listener: ListenerLog;
/** An impostor at a connection's address: its certificate is signed by a CA the connection does not trust. */
let impostor: ListenerLog;
let impostorCaPem: string;
const standins: Record<ConnectionKind, { url: string; caPem: string; close(): Promise<void> }> =
  {} as never;

beforeAll(async () => {
  ({ app, admin } = await startTestAppAsAdmin());
  listener = await startListener();
  const foreign = await createTestCertificates();
  impostorCaPem = foreign.ca.cert;
  impostor = await startListener({
    caPem: foreign.ca.cert,
    certPem: foreign.caSigned.cert,
    keyPem: foreign.caSigned.key,
  });
  standins.PROXMOX = await createProxmoxStandin({ cluster: generateCluster({ nodes: 1 }) });
  standins.VCD = await createVcdStandin();
  standins.VCENTER = await createVcenterStandin();
});

afterAll(async () => {
  await Promise.all(Object.values(standins).map((s) => s?.close()));
  await listener?.server.close();
  await impostor?.server.close();
  await app?.close();
});

describe.each(KINDS)("a stored $kind secret", ({ kind, secret, login, otherLogins }) => {
  let n = 0;
  /** A fresh connection to the real stand-in, saved with its working secret. */
  async function connection() {
    n += 1;
    const name = `${kind.toLowerCase()}-${n}`;
    const saved = await saveStandinConnection(app.services, kind, standins[kind], name);
    const base = { name, url: standins[kind].url, caPem: standins[kind].caPem, ...login };
    return { id: saved.id, gid: encodeGlobalID("Connection", saved.id), base };
  }
  async function save(input: Record<string, unknown>) {
    const res = await app.graphql<SaveResult>(
      `mutation($input: ${INPUT[kind]}!) { result: ${SAVE[kind]} {
        __typename ... on ValidationError { problems { field message } } } }`,
      { input },
      { cookie: admin },
    );
    return res.body.data?.result ?? { __typename: JSON.stringify(res.body.errors) };
  }
  const carriesSecret = (value: string) => listener.seen.some((line) => line.includes(value));

  it("is not sent to a new address saved with a blank secret: the save is refused on the secret field", async () => {
    const c = await connection();
    listener.seen.length = 0;
    for (const blank of [{}, { secret: "" }, { secret: SECRET_PLACEHOLDER }]) {
      const result = await save({ ...c.base, id: c.gid, url: listener.server.url, ...blank });
      expect(result.__typename).toBe("ValidationError");
      expect(result.problems?.map((p) => p.field)).toEqual(["secret"]);
      expect(result.problems?.[0]?.message).toMatch(/give the secret again/i);
    }
    const stored = await app.services.prisma.connection.findUniqueOrThrow({ where: { id: c.id } });
    expect(stored.baseUrl).toBe(standins[kind].url);
    expect(await testConnection(app.services, c.id)).toMatchObject({ ok: true });
    expect(listener.seen).toEqual([]);
  });

  it("is not presented as another user (or org, or token) saved with a blank secret", async () => {
    const c = await connection();
    for (const other of otherLogins) {
      const result = await save({ ...c.base, id: c.gid, ...other });
      expect(result.__typename, JSON.stringify(other)).toBe("ValidationError");
      expect(result.problems?.map((p) => p.field)).toEqual(["secret"]);
    }
    const stored = await app.services.prisma.connection.findUniqueOrThrow({ where: { id: c.id } });
    expect({ username: stored.username, tokenId: stored.tokenId ?? "" }).toMatchObject(login);
  });

  it("re-points with the new secret given, and only the new secret reaches the new address", async () => {
    const c = await connection();
    listener.seen.length = 0;
    const mine = `listener-owned-${kind}-secret`;
    const result = await save({ ...c.base, id: c.gid, url: listener.server.url, secret: mine });
    expect(result.__typename).toMatch(/Success$/);
    expect(await testConnection(app.services, c.id)).toMatchObject({ ok: false });
    expect(listener.seen.length).toBeGreaterThan(0);
    expect(carriesSecret(mine)).toBe(true);
    expect(carriesSecret(secret)).toBe(false);
  });

  /** A connection saved, with its real secret, for an address an impostor now answers. */
  async function interceptedConnection(more: { caPem?: string | null; verifyTls?: boolean }) {
    n += 1;
    const name = `${kind.toLowerCase()}-intercepted-${n}`;
    const at = { url: impostor.server.url, caPem: standins[kind].caPem };
    const saved = await saveStandinConnection(app.services, kind, at, name, more);
    const base = { name, url: at.url, caPem: more.caPem === undefined ? at.caPem : more.caPem };
    return {
      id: saved.id,
      gid: encodeGlobalID("Connection", saved.id),
      base: { ...base, ...login },
    };
  }
  const impostorGot = (value: string) => impostor.seen.some((line) => line.includes(value));

  it("is not sent to an impostor after TLS verification is turned off or another CA is trusted with a blank secret", async () => {
    const c = await interceptedConnection({});
    const sinceNone = await interceptedConnection({ caPem: null });
    impostor.seen.length = 0;
    const loosenings = [
      { ...c, edit: { verifyTls: false }, change: /TLS verification/ },
      { ...c, edit: { caPem: impostorCaPem }, change: /CA certificate/ },
      {
        ...c,
        edit: { caPem: `${standins[kind].caPem}\n${impostorCaPem}` },
        change: /CA certificate/,
      },
      { ...sinceNone, edit: { caPem: impostorCaPem }, change: /CA certificate/ },
      { ...c, edit: { verifyTls: false, caPem: null }, change: /TLS verification/ },
    ];
    for (const { gid, base, edit, change } of loosenings) {
      for (const blank of [{}, { secret: "" }, { secret: SECRET_PLACEHOLDER }]) {
        const result = await save({ ...base, id: gid, ...edit, ...blank });
        expect(result.__typename, JSON.stringify({ edit, blank })).toBe("ValidationError");
        expect(result.problems?.map((p) => p.field)).toEqual(["secret"]);
        expect(result.problems?.[0]?.message).toMatch(/give the secret again/i);
        expect(result.problems?.[0]?.message).toMatch(change);
      }
    }
    for (const { id } of [c, sinceNone]) {
      const stored = await app.services.prisma.connection.findUniqueOrThrow({ where: { id } });
      expect(stored.verifyTls).toBe(true);
      expect(stored.caPem ?? "").not.toContain(impostorCaPem);
      // The certificate check still refuses the impostor before any request reaches it.
      expect(await testConnection(app.services, id)).toMatchObject({ ok: false });
    }
    expect(impostor.seen).toEqual([]);
    expect(impostorGot(secret)).toBe(false);
  });

  it("trusts the impostor only with a secret given with the looser setting, and sends only that one", async () => {
    const c = await interceptedConnection({});
    impostor.seen.length = 0;
    const mine = `impostor-trusting-${kind}-secret`;
    const result = await save({ ...c.base, id: c.gid, verifyTls: false, secret: mine });
    expect(result.__typename).toMatch(/Success$/);
    expect(await testConnection(app.services, c.id)).toMatchObject({ ok: false });
    expect(impostorGot(mine)).toBe(true);
    expect(impostorGot(secret)).toBe(false);
  });

  it("keeps the stored secret when TLS trust is tightened and the secret is left blank", async () => {
    const c = await connection();
    const tightenings = [
      { from: { verifyTls: false }, to: { verifyTls: true } },
      {
        from: { verifyTls: false, caPem: null },
        to: { verifyTls: true, caPem: standins[kind].caPem },
      },
      { from: { verifyTls: false }, to: { verifyTls: false, caPem: impostorCaPem } },
      { from: { verifyTls: true }, to: { verifyTls: true, caPem: null } },
      { from: { verifyTls: true }, to: { verifyTls: true, caPem: `\n${standins[kind].caPem}\n` } },
    ];
    for (const { from, to } of tightenings) {
      const setUp = await save({ ...c.base, id: c.gid, ...from, secret });
      expect(setUp.__typename).toMatch(/Success$/);
      const result = await save({ ...c.base, id: c.gid, ...to });
      expect(result.__typename, JSON.stringify({ from, to })).toMatch(/Success$/);
    }
    const back = await save({ ...c.base, id: c.gid, verifyTls: true, secret });
    expect(back.__typename).toMatch(/Success$/);
    expect(await save({ ...c.base, id: c.gid, verifyTls: true })).toMatchObject({
      __typename: expect.stringMatching(/Success$/),
    });
    expect(await testConnection(app.services, c.id)).toMatchObject({ ok: true });
  });

  it("keeps the stored secret when only the name changes and the secret is left blank", async () => {
    const c = await connection();
    const result = await save({ ...c.base, id: c.gid, name: `${c.base.name}-renamed` });
    expect(result.__typename).toMatch(/Success$/);
    expect(await testConnection(app.services, c.id)).toMatchObject({ ok: true });
  });
});

it("an edit that keeps the secret does not land on a row another edit re-pointed meanwhile", async () => {
  // The attacker's row already points at their listener with their own secret; the owner fixes
  // the address and enters the real secret while the attacker renames with the secret blank.
  const atListener = { url: listener.server.url, caPem: standins.PROXMOX.caPem };
  const row = await saveStandinConnection(app.services, "PROXMOX", atListener, "raced", {
    secret: "attacker-secret",
  });
  const outcomes = await Promise.allSettled([
    saveStandinConnection(app.services, "PROXMOX", standins.PROXMOX, "raced", { id: row.id }),
    saveStandinConnection(app.services, "PROXMOX", atListener, "raced-renamed", {
      id: row.id,
      secret: undefined,
    }),
  ]);
  expect(outcomes[0].status).toBe("fulfilled");
  const { stored, storedSecret } = await storedWithSecret(row.id);
  // Whichever edit won, the row never holds the owner's secret with the attacker's address.
  expect({ url: stored.baseUrl, secret: storedSecret }).not.toEqual({
    url: listener.server.url,
    secret: DEFAULT_TOKEN.secret,
  });
});

it("an edit that keeps the secret does not land on a row whose TLS trust another edit changed meanwhile", async () => {
  // The attacker's row already trusts any certificate, with their own secret; the owner turns
  // verification on and enters the real secret while the attacker renames with the secret blank.
  const atImpostor = { url: impostor.server.url, caPem: standins.PROXMOX.caPem };
  const row = await saveStandinConnection(app.services, "PROXMOX", atImpostor, "raced-trust", {
    secret: "attacker-secret",
    verifyTls: false,
  });
  const outcomes = await Promise.allSettled([
    saveStandinConnection(app.services, "PROXMOX", atImpostor, "raced-trust", {
      id: row.id,
      verifyTls: true,
      secret: DEFAULT_TOKEN.secret,
    }),
    saveStandinConnection(app.services, "PROXMOX", atImpostor, "raced-trust-renamed", {
      id: row.id,
      verifyTls: false,
      secret: undefined,
    }),
  ]);
  expect(outcomes[0].status).toBe("fulfilled");
  const { stored, storedSecret } = await storedWithSecret(row.id);
  // Whichever edit won, the row never holds the owner's secret with verification off.
  expect({ verifyTls: stored.verifyTls, secret: storedSecret }).not.toEqual({
    verifyTls: false,
    secret: DEFAULT_TOKEN.secret,
  });
});

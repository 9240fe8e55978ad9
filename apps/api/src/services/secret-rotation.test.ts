// `hyperlens secrets rotate`: old key in, new key out, every connection still logs in.
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import {
  generateSecretKeyText,
  keyFilePath,
  loadKeyring,
  parseSecretKey,
  SecretBox,
  SecretDecryptError,
} from "@hyperlens/db";
import {
  createProxmoxStandin,
  createVcdStandin,
  DEFAULT_TOKEN,
  DEFAULT_VCD_USERS,
  generateCluster,
  type ProxmoxStandin,
  type VcdStandin,
} from "@hyperlens/standins/testing";
import { Secret, TOTP } from "otpauth";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { AppServices } from "../context.ts";
import { createIdentityProvider, findIdentityProvider } from "../identity/providers.ts";
import { saveStandinConnection } from "../testing/standin-connections.ts";
import { createTestServices } from "../testing/test-app.ts";
import { webhookSecretContext } from "../webhooks/signature.ts";
import { testConnection } from "./connection-test.ts";
import { rotateSecrets, rotationKeyring, SecretRotationError } from "./secret-rotation.ts";
import { beginTwoFactorEnrolment, checkSecondFactor, totpSealingId } from "./two-factor.ts";
import { createUser } from "./users.ts";

const tenant = DEFAULT_VCD_USERS.find((u) => u.role !== "provider");
if (!tenant) throw new Error("the stand-in has no tenant user");

const oldKey = generateSecretKeyText();
const newKey = generateSecretKeyText();
const boxOf = (key: string, previousKeys?: string) =>
  new SecretBox(loadKeyring({ key, previousKeys, dataDir: "/nonexistent" }));

let proxmox: ProxmoxStandin;
let director: VcdStandin;
let services: AppServices;
let close: () => Promise<void>;
let ids: { proxmox: string; director: string };

beforeAll(async () => {
  proxmox = await createProxmoxStandin({ version: "9.1", cluster: generateCluster({ nodes: 1 }) });
  // The demo Director has the tenant org "acme" the default tenant user belongs to.
  director = await createVcdStandin();
});

afterAll(async () => {
  await proxmox?.close();
  await director?.close();
});

beforeEach(async () => {
  const test = await createTestServices();
  services = { ...test.services, secrets: boxOf(oldKey) };
  close = () => test.db.close();
  const pve = await saveStandinConnection(services, "PROXMOX", proxmox, "pve");
  const vcd = await saveStandinConnection(services, "VCD", director, "director", {
    username: `${tenant.user}@${tenant.org}`,
    secret: tenant.password,
  });
  ids = { proxmox: pve.id, director: vcd.id };
  return close;
});

const storedSecrets = () =>
  services.prisma.connectionSecret.findMany({ orderBy: { connectionId: "asc" } });

describe("rotating the secret key", () => {
  it("re-seals every secret with the new key; every connection still logs in; the old key alone no longer decrypts", async () => {
    const result = await rotateSecrets(services.prisma, boxOf(newKey, oldKey), null);
    expect(result).toEqual({
      resealed: 2,
      alreadyCurrent: 0,
      keyId: parseSecretKey(newKey, "new").id,
      twoFactor: { resealed: 0, alreadyCurrent: 0 },
    });
    const rows = await storedSecrets();
    expect(rows.map((r) => r.keyId)).toEqual([result.keyId, result.keyId]);

    const onlyNew = { ...services, secrets: boxOf(newKey) };
    for (const id of [ids.proxmox, ids.director]) {
      const test = await testConnection(onlyNew, id);
      expect(test, id).toMatchObject({ ok: true, errorClass: null });
    }
    expect(director.openSessions).toBe(0);

    const onlyOld = boxOf(oldKey);
    for (const row of rows) {
      expect(() => onlyOld.open(row.ciphertext, row.connectionId)).toThrow(SecretDecryptError);
    }
  });

  it("a second rotation re-seals nothing", async () => {
    await rotateSecrets(services.prisma, boxOf(newKey, oldKey), null);
    const again = await rotateSecrets(services.prisma, boxOf(newKey), null);
    expect(again).toMatchObject({ resealed: 0, alreadyCurrent: 2 });
  });

  it("refuses, names the connection and changes nothing when a secret opens with no configured key", async () => {
    const before = await storedSecrets();
    const stranger = boxOf(generateSecretKeyText());
    const error = await rotateSecrets(services.prisma, stranger, null).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SecretRotationError);
    const message = (error as SecretRotationError).message;
    expect(message).toContain("pve");
    expect(message).toContain("director");
    expect(message).not.toContain(DEFAULT_TOKEN.secret);
    expect(message).not.toContain(tenant.password);
    expect(await storedSecrets()).toEqual(before);
  });

  it("refuses the whole rotation when only one secret is unreadable", async () => {
    const other = boxOf(generateSecretKeyText());
    await services.prisma.connectionSecret.update({
      where: { connectionId: ids.director },
      data: other.seal(tenant.password, ids.director),
    });
    const before = await storedSecrets();
    await expect(rotateSecrets(services.prisma, boxOf(newKey, oldKey), null)).rejects.toThrow(
      /director/,
    );
    expect(await storedSecrets()).toEqual(before);
  });

  it("re-seals identity providers' secrets too, and names a provider whose secret no key opens", async () => {
    const sources = (box: SecretBox) => ({
      prisma: services.prisma,
      secrets: box,
      environmentProviders: [],
    });
    await createIdentityProvider(
      sources(boxOf(oldKey)),
      {
        slug: "corp",
        kind: "OIDC",
        displayName: "Corp",
        isEnabled: true,
        createJustInTime: false,
        groupMappings: [],
        settings: { issuer: "https://sso.example", clientId: "hyperlens" },
        secret: "provider client secret",
      },
      null,
    );
    const result = await rotateSecrets(services.prisma, boxOf(newKey, oldKey), null);
    expect(result).toMatchObject({ resealed: 3, alreadyCurrent: 0 });
    const provider = await findIdentityProvider(sources(boxOf(newKey)), "corp");
    expect(provider?.secret()).toBe("provider client secret");
    const row = await services.prisma.identityProvider.findUniqueOrThrow({
      where: { slug: "corp" },
    });
    expect(row.secretKeyId).toBe(result.keyId);

    const stranger = boxOf(generateSecretKeyText());
    await services.prisma.identityProvider.update({
      where: { id: row.id },
      data: {
        ...(({ ciphertext, keyId }) => ({ secretCiphertext: ciphertext, secretKeyId: keyId }))(
          stranger.seal("x", `identity-provider:${row.id}`),
        ),
      },
    });
    await expect(rotateSecrets(services.prisma, boxOf(newKey), null)).rejects.toThrow(
      /identity provider corp/,
    );
  });

  it("reads old secrets with the data directory's key file when HYPERLENS_SECRET_KEY is set", async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "hl-rotate-"));
    writeFileSync(keyFilePath(dataDir), `${oldKey}\n`, { mode: 0o600 });
    const keyring = rotationKeyring({
      secretKey: newKey,
      previousSecretKeys: undefined,
      dataDir,
    });
    const result = await rotateSecrets(services.prisma, new SecretBox(keyring), null);
    expect(result.resealed).toBe(2);
  });

  it("re-seals users' two-factor secrets too: the old key alone no longer opens them, codes still work", async () => {
    const user = await createUser(
      services.prisma,
      { username: "totp-user", password: "correct horse battery" },
      null,
    );
    const begun = await beginTwoFactorEnrolment(
      services.prisma,
      boxOf(oldKey),
      user.id,
      "correct horse battery",
    );
    if (!begun.ok) throw new Error("enrolment was refused");
    const { secret } = begun.value;
    await services.prisma.user.update({
      where: { id: user.id },
      data: { totpEnabledAt: new Date() },
    });

    const result = await rotateSecrets(services.prisma, boxOf(newKey, oldKey), null);
    expect(result.twoFactor).toEqual({ resealed: 1, alreadyCurrent: 0 });
    const row = await services.prisma.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.totpKeyId).toBe(result.keyId);
    const sealed = row.totpCiphertext ?? "";
    expect(() => boxOf(oldKey).open(sealed, totpSealingId(user.id))).toThrow(SecretDecryptError);
    expect(boxOf(newKey).open(sealed, totpSealingId(user.id))).toBe(secret);
    const code = new TOTP({ secret: Secret.fromBase32(secret) }).generate();
    expect(await checkSecondFactor(services.prisma, boxOf(newKey), row, { code })).toEqual({
      ok: true,
    });
  });

  it("refuses the whole rotation, naming the user, when a two-factor secret opens with no configured key", async () => {
    const user = await createUser(
      services.prisma,
      { username: "stranded", password: "correct horse battery" },
      null,
    );
    await beginTwoFactorEnrolment(
      services.prisma,
      boxOf(generateSecretKeyText()),
      user.id,
      "correct horse battery",
    );
    const before = await storedSecrets();
    await expect(rotateSecrets(services.prisma, boxOf(newKey, oldKey), null)).rejects.toThrow(
      /two-factor secret of user stranded/,
    );
    expect(await storedSecrets()).toEqual(before);
  });

  it("re-seals webhook signing secrets too: the old key alone no longer opens them", async () => {
    await services.prisma.user.deleteMany({ where: { username: "stranded" } });
    const endpointId = "00000000-0000-4000-8000-00000000beef";
    const sealed = boxOf(oldKey).seal("whsec_rotate_me", webhookSecretContext(endpointId));
    await services.prisma.webhookEndpoint.create({
      data: {
        id: endpointId,
        url: "https://receiver.invalid/hook",
        secretCiphertext: sealed.ciphertext,
        secretKeyId: sealed.keyId,
      },
    });
    const result = await rotateSecrets(services.prisma, boxOf(newKey, oldKey), null);
    const row = await services.prisma.webhookEndpoint.findUniqueOrThrow({
      where: { id: endpointId },
    });
    expect(row.secretKeyId).toBe(result.keyId);
    const context = webhookSecretContext(endpointId);
    expect(() => boxOf(oldKey).open(row.secretCiphertext, context)).toThrow(SecretDecryptError);
    expect(boxOf(newKey).open(row.secretCiphertext, context)).toBe("whsec_rotate_me");
  });
});

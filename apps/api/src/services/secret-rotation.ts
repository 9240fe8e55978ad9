// Key rotation for connection and identity-provider secrets (docs/behaviour.md §1, §11 `hyperlens secrets rotate`): every stored
// secret is opened with whichever configured key sealed it and sealed again with the current key.
// Users' two-factor secrets are sealed with the same box and rotate with them (§12.30).
import { existsSync, readFileSync } from "node:fs";
import {
  type Keyring,
  keyFilePath,
  loadKeyring,
  type PrismaClient,
  parseSecretKey,
  type SealedSecret,
  SecretBox,
  SecretDecryptError,
} from "@hyperlens/db";
import type { Viewer } from "../auth/viewer.ts";
import type { Config } from "../config.ts";
import { providerSecretContext } from "../identity/providers.ts";
import { webhookSecretContext } from "../webhooks/signature.ts";
import { recordAudit } from "./audit.ts";
import { totpSealingId } from "./two-factor.ts";

/** What a rotation did. */
export interface RotationResult {
  /** Secrets that were sealed with an older key and are now sealed with the current one. */
  resealed: number;
  /** Secrets that already used the current key (opened to prove they still decrypt). */
  alreadyCurrent: number;
  /** The id of the key every secret is now sealed with (a hash prefix, safe to print). */
  keyId: string;
  /** Users' two-factor secrets, counted the same way. */
  twoFactor: { resealed: number; alreadyCurrent: number };
}

/**
 * A secret no configured key opens; names the connections (and users, for a two-factor secret),
 * never a secret.
 */
export class SecretRotationError extends Error {
  override name = "SecretRotationError";
  constructor(readonly connections: { id: string; name: string; reason: string }[]) {
    super(
      `Nothing was changed: ${connections.length} stored secret(s) cannot be opened with any configured key:\n` +
        connections.map((c) => `  ${c.name} (${c.id}): ${c.reason}`).join("\n") +
        "\nList the key that sealed them in HYPERLENS_SECRET_KEY_PREVIOUS, or edit those connections (or identity providers) and give the secret again.",
    );
  }
}

/**
 * The keyring for a rotation: the configured one, plus the data directory's key file as an older
 * key when HYPERLENS_SECRET_KEY is set — the usual move from the generated file to a managed key.
 */
export function rotationKeyring(
  config: Pick<Config, "secretKey" | "previousSecretKeys" | "dataDir">,
): Keyring {
  const keyring = loadKeyring({
    key: config.secretKey,
    previousKeys: config.previousSecretKeys,
    dataDir: config.dataDir,
  });
  const file = keyFilePath(config.dataDir);
  if (config.secretKey && existsSync(file)) {
    const fromFile = parseSecretKey(readFileSync(file, "utf8"), `The key file ${file}`);
    const known = [keyring.current, ...keyring.previous].some((k) => k.id === fromFile.id);
    if (!known) keyring.previous.push(fromFile);
  }
  return keyring;
}

type Transaction = Parameters<Parameters<PrismaClient["$transaction"]>[0]>[0];

/** One stored secret: where it is, what to call it in an error, and what it was sealed for. */
interface StoredSecret {
  id: string;
  label: string;
  /** The context it was sealed with (AES-GCM associated data): its row, so it cannot be moved. */
  context: string;
  sealed: SealedSecret;
}

/** A kind of sealed secret: how to list every one, and how to store one sealed anew. */
interface SealedKind {
  /** Which figure of the result it counts under. */
  tally: "secrets" | "twoFactor";
  list(tx: Transaction): Promise<StoredSecret[]>;
  store(tx: Transaction, id: string, sealed: SealedSecret): Promise<unknown>;
}

const SEALED_KINDS: readonly SealedKind[] = [
  {
    tally: "secrets",
    list: async (tx) =>
      (
        await tx.connectionSecret.findMany({
          select: {
            connectionId: true,
            ciphertext: true,
            keyId: true,
            connection: { select: { name: true } },
          },
          orderBy: { connectionId: "asc" },
        })
      ).map((row) => ({
        id: row.connectionId,
        label: row.connection.name,
        context: row.connectionId,
        sealed: row,
      })),
    store: (tx, connectionId, sealed) =>
      tx.connectionSecret.update({ where: { connectionId }, data: sealed }),
  },
  {
    // TRAP: docs/behaviour.md §12.30 — a TOTP secret left on the old key locks its user out once that key goes.
    tally: "twoFactor",
    list: async (tx) =>
      (
        await tx.user.findMany({
          where: { totpCiphertext: { not: null } },
          select: { id: true, username: true, totpCiphertext: true, totpKeyId: true },
          orderBy: { id: "asc" },
        })
      ).map((user) => ({
        id: user.id,
        label: `two-factor secret of user ${user.username}`,
        context: totpSealingId(user.id),
        sealed: { ciphertext: user.totpCiphertext ?? "", keyId: user.totpKeyId ?? "" },
      })),
    store: (tx, id, sealed) =>
      tx.user.update({
        where: { id },
        data: { totpCiphertext: sealed.ciphertext, totpKeyId: sealed.keyId },
      }),
  },
  {
    tally: "secrets",
    list: async (tx) =>
      (
        await tx.identityProvider.findMany({
          where: { secretCiphertext: { not: null } },
          select: { id: true, slug: true, secretCiphertext: true, secretKeyId: true },
          orderBy: { slug: "asc" },
        })
      ).map((row) => ({
        id: row.id,
        label: `identity provider ${row.slug}`,
        context: providerSecretContext(row.id),
        sealed: { ciphertext: row.secretCiphertext ?? "", keyId: row.secretKeyId ?? "" },
      })),
    store: (tx, id, sealed) =>
      tx.identityProvider.update({
        where: { id },
        data: { secretCiphertext: sealed.ciphertext, secretKeyId: sealed.keyId },
      }),
  },
  {
    tally: "secrets",
    list: async (tx) =>
      (
        await tx.webhookEndpoint.findMany({
          select: { id: true, url: true, secretCiphertext: true, secretKeyId: true },
          orderBy: { id: "asc" },
        })
      ).map((row) => ({
        id: row.id,
        label: `webhook endpoint ${row.url}`,
        context: webhookSecretContext(row.id),
        sealed: { ciphertext: row.secretCiphertext, keyId: row.secretKeyId },
      })),
    store: (tx, id, sealed) =>
      tx.webhookEndpoint.update({
        where: { id },
        data: { secretCiphertext: sealed.ciphertext, secretKeyId: sealed.keyId },
      }),
  },
];

/**
 * Re-seals every stored secret (connections, identity providers, users' two-factor secrets) with
 * the box's current key, in one transaction: if any secret cannot be opened, nothing is written
 * and the error names whose it is.
 */
export async function rotateSecrets(
  prisma: PrismaClient,
  secrets: SecretBox,
  actor: Viewer | null,
): Promise<RotationResult> {
  return prisma.$transaction(
    async (tx) => {
      const unreadable: { id: string; name: string; reason: string }[] = [];
      const stale: { kind: SealedKind; id: string; context: string; plaintext: string }[] = [];
      const tally = {
        secrets: { resealed: 0, alreadyCurrent: 0 },
        twoFactor: { resealed: 0, alreadyCurrent: 0 },
      };
      for (const kind of SEALED_KINDS) {
        for (const stored of await kind.list(tx)) {
          let plaintext: string;
          try {
            plaintext = secrets.open(stored.sealed.ciphertext, stored.context);
          } catch (error) {
            // TRAP: docs/behaviour.md §1 — only our own decrypt message (key id, never the secret) may be shown.
            const reason =
              error instanceof SecretDecryptError ? error.message : "it could not be decrypted.";
            unreadable.push({ id: stored.id, name: stored.label, reason });
            continue;
          }
          if (secrets.isStale(stored.sealed)) {
            stale.push({ kind, id: stored.id, context: stored.context, plaintext });
            tally[kind.tally].resealed += 1;
          } else tally[kind.tally].alreadyCurrent += 1;
        }
      }
      // TRAP: docs/behaviour.md §1 — re-sealing some and failing on others would leave secrets only an old key opens.
      if (unreadable.length) throw new SecretRotationError(unreadable);
      for (const { kind, id, context, plaintext } of stale)
        await kind.store(tx, id, secrets.seal(plaintext, context));
      await recordAudit(tx, actor, {
        action: "secrets.rotate",
        targetType: "connection_secret",
        details: {
          ...tally.secrets,
          keyId: secrets.currentKeyId,
          twoFactorResealed: tally.twoFactor.resealed,
        },
      });
      return { ...tally.secrets, keyId: secrets.currentKeyId, twoFactor: tally.twoFactor };
    },
    // A few thousand AES operations and updates can outlast Prisma's 5 s default.
    { timeout: 120_000, maxWait: 30_000 },
  );
}

/** Builds the box for a rotation from configuration (see {@link rotationKeyring}). */
export function rotationSecretBox(
  config: Pick<Config, "secretKey" | "previousSecretKeys" | "dataDir">,
): SecretBox {
  return new SecretBox(rotationKeyring(config));
}

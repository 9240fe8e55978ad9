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
  SecretBox,
  SecretDecryptError,
} from "@hyperlens/db";
import type { Viewer } from "../auth/viewer.ts";
import type { Config } from "../config.ts";
import { providerSecretContext } from "../identity/providers.ts";
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

/**
 * Re-seals every stored connection and identity-provider secret with the box's current key, in one transaction: if any
 * secret cannot be opened, nothing is written and the error names the connections.
 */
export async function rotateSecrets(
  prisma: PrismaClient,
  secrets: SecretBox,
  actor: Viewer | null,
): Promise<RotationResult> {
  return prisma.$transaction(
    async (tx) => {
      const rows = await tx.connectionSecret.findMany({
        select: {
          connectionId: true,
          ciphertext: true,
          keyId: true,
          connection: { select: { name: true } },
        },
        orderBy: { connectionId: "asc" },
      });
      const unreadable: { id: string; name: string; reason: string }[] = [];
      const stale: { connectionId: string; plaintext: string }[] = [];
      let alreadyCurrent = 0;
      for (const row of rows) {
        let plaintext: string;
        try {
          plaintext = secrets.open(row.ciphertext, row.connectionId);
        } catch (error) {
          // TRAP: docs/behaviour.md §1 — only our own decrypt message (key id, never the secret) may be shown.
          const reason =
            error instanceof SecretDecryptError ? error.message : "it could not be decrypted.";
          unreadable.push({ id: row.connectionId, name: row.connection.name, reason });
          continue;
        }
        if (secrets.isStale(row)) stale.push({ connectionId: row.connectionId, plaintext });
        else alreadyCurrent += 1;
      }
      const users = await tx.user.findMany({
        where: { totpCiphertext: { not: null } },
        select: { id: true, username: true, totpCiphertext: true, totpKeyId: true },
        orderBy: { id: "asc" },
      });
      const staleTotp: { userId: string; plaintext: string }[] = [];
      let totpCurrent = 0;
      for (const user of users) {
        if (!user.totpCiphertext) continue;
        let plaintext: string;
        try {
          plaintext = secrets.open(user.totpCiphertext, totpSealingId(user.id));
        } catch (error) {
          const reason =
            error instanceof SecretDecryptError ? error.message : "it could not be decrypted.";
          unreadable.push({
            id: user.id,
            name: `two-factor secret of user ${user.username}`,
            reason,
          });
          continue;
        }
        // TRAP: docs/behaviour.md §12.30 — a TOTP secret left on the old key locks its user out once that key goes.
        if (user.totpKeyId !== secrets.currentKeyId) staleTotp.push({ userId: user.id, plaintext });
        else totpCurrent += 1;
      }
      // Identity providers' client secrets and bind passwords (docs/behaviour.md §12) go the same way.
      const providers = await tx.identityProvider.findMany({
        where: { secretCiphertext: { not: null } },
        select: { id: true, slug: true, secretCiphertext: true, secretKeyId: true },
        orderBy: { slug: "asc" },
      });
      const staleProviders: { id: string; plaintext: string }[] = [];
      for (const row of providers) {
        const sealed = { ciphertext: row.secretCiphertext ?? "", keyId: row.secretKeyId ?? "" };
        let plaintext: string;
        try {
          plaintext = secrets.open(sealed.ciphertext, providerSecretContext(row.id));
        } catch (error) {
          const reason =
            error instanceof SecretDecryptError ? error.message : "it could not be decrypted.";
          unreadable.push({ id: row.id, name: `identity provider ${row.slug}`, reason });
          continue;
        }
        if (secrets.isStale(sealed)) staleProviders.push({ id: row.id, plaintext });
        else alreadyCurrent += 1;
      }
      // TRAP: docs/behaviour.md §1 — re-sealing some and failing on others would leave secrets only an old key opens.
      if (unreadable.length) throw new SecretRotationError(unreadable);
      for (const { userId, plaintext } of staleTotp) {
        const sealed = secrets.seal(plaintext, totpSealingId(userId));
        await tx.user.update({
          where: { id: userId },
          data: { totpCiphertext: sealed.ciphertext, totpKeyId: sealed.keyId },
        });
      }
      for (const { connectionId, plaintext } of stale) {
        await tx.connectionSecret.update({
          where: { connectionId },
          data: secrets.seal(plaintext, connectionId),
        });
      }
      for (const { id, plaintext } of staleProviders) {
        const sealed = secrets.seal(plaintext, providerSecretContext(id));
        await tx.identityProvider.update({
          where: { id },
          data: { secretCiphertext: sealed.ciphertext, secretKeyId: sealed.keyId },
        });
      }
      const resealed = stale.length + staleProviders.length;
      await recordAudit(tx, actor, {
        action: "secrets.rotate",
        targetType: "connection_secret",
        details: {
          resealed,
          alreadyCurrent,
          keyId: secrets.currentKeyId,
          twoFactorResealed: staleTotp.length,
        },
      });
      return {
        resealed,
        alreadyCurrent,
        keyId: secrets.currentKeyId,
        twoFactor: { resealed: staleTotp.length, alreadyCurrent: totpCurrent },
      };
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

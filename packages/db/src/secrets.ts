// Encryption of connection secrets at rest: AES-256-GCM, the connection id bound as associated
// data (a ciphertext copied to another connection does not decrypt), a versioned envelope that
// names its key so keys can be rotated.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import path from "node:path";

const KEY_BYTES = 32;
const IV_BYTES = 12;
const ENVELOPE_VERSION = "v1";

/** A key and its public id (a hash prefix: safe to store and log). */
export interface SecretKey {
  id: string;
  bytes: Buffer;
}

/** The key used to encrypt, plus older keys still accepted for decryption during rotation. */
export interface Keyring {
  current: SecretKey;
  previous: SecretKey[];
}

/** Thrown when a stored secret cannot be decrypted; never carries the secret. */
export class SecretDecryptError extends Error {
  override name = "SecretDecryptError";
  /**
   * @param missingKeyId the id of the key that sealed the secret when no configured key has it
   *   (configuring that key again opens the secret); undefined when the data itself is bad.
   */
  constructor(
    message: string,
    readonly missingKeyId?: string,
  ) {
    super(message);
  }
}

/** Thrown for a key that is not 32 bytes of base64 or hex; never carries the value. */
export class SecretKeyFormatError extends Error {
  override name = "SecretKeyFormatError";
}

/** Derives a key's id; the id reveals nothing usable about the key. */
export function keyIdOf(bytes: Buffer): string {
  return createHash("sha256")
    .update("hyperlens-key-id:")
    .update(bytes)
    .digest("base64url")
    .slice(0, 10);
}

/** Parses a 32-byte key given as base64 (44 chars) or hex (64 chars). */
export function parseSecretKey(text: string, source: string): SecretKey {
  const trimmed = text.trim();
  let bytes: Buffer | undefined;
  if (/^[0-9a-fA-F]{64}$/.test(trimmed)) bytes = Buffer.from(trimmed, "hex");
  else if (/^[A-Za-z0-9+/_-]{43}=?$/.test(trimmed)) bytes = Buffer.from(trimmed, "base64");
  if (!bytes || bytes.length !== KEY_BYTES) {
    throw new SecretKeyFormatError(
      `${source} must be a 32-byte key written as base64 (44 characters) or hex (64 characters); ` +
        "create one with: openssl rand -base64 32",
    );
  }
  return { id: keyIdOf(bytes), bytes };
}

/** Generates a new random key, base64-encoded. */
export function generateSecretKeyText(): string {
  return randomBytes(KEY_BYTES).toString("base64");
}

export interface KeyringSource {
  /** HYPERLENS_SECRET_KEY, when set. */
  key?: string | undefined;
  /** HYPERLENS_SECRET_KEY_PREVIOUS: comma-separated keys that may still decrypt. */
  previousKeys?: string | undefined;
  /** Where the key file is created when no key is configured. */
  dataDir: string;
}

/** The key file's path inside the data directory. */
export function keyFilePath(dataDir: string): string {
  return path.join(dataDir, "secret.key");
}

function loadOrCreateKeyFile(dataDir: string): SecretKey {
  const file = keyFilePath(dataDir);
  if (!existsSync(file)) {
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(file, `${generateSecretKeyText()}\n`, { mode: 0o600, flag: "wx" });
    chmodSync(file, 0o600);
  }
  // TRAP: docs/behaviour.md §1 — a key file readable by others leaks every connection secret.
  if ((statSync(file).mode & 0o077) !== 0) {
    throw new SecretKeyFormatError(
      `The secret key file ${file} is readable by other users; run: chmod 600 ${file}`,
    );
  }
  return parseSecretKey(readFileSync(file, "utf8"), `The key file ${file}`);
}

/** Builds the keyring from configuration, creating the key file on first start if needed. */
export function loadKeyring(source: KeyringSource): Keyring {
  const current = source.key
    ? parseSecretKey(source.key, "HYPERLENS_SECRET_KEY")
    : loadOrCreateKeyFile(source.dataDir);
  const previous = (source.previousKeys ?? "")
    .split(",")
    .filter((text) => text.trim() !== "")
    .map((text, i) => parseSecretKey(text, `HYPERLENS_SECRET_KEY_PREVIOUS (key ${i + 1})`));
  return { current, previous };
}

/** A stored secret: the envelope and the id of the key that sealed it. */
export interface SealedSecret {
  ciphertext: string;
  keyId: string;
}

/** Encrypts and decrypts connection secrets with a keyring. */
export class SecretBox {
  constructor(private readonly keyring: Keyring) {}

  /** The id of the key new secrets are sealed with. */
  get currentKeyId(): string {
    return this.keyring.current.id;
  }

  /** Seals a secret for one connection. */
  seal(plaintext: string, connectionId: string): SealedSecret {
    const key = this.keyring.current;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv("aes-256-gcm", key.bytes, iv);
    cipher.setAAD(Buffer.from(connectionId, "utf8"));
    const body = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
    const parts = [ENVELOPE_VERSION, key.id, iv, cipher.getAuthTag(), body].map((part) =>
      typeof part === "string" ? part : part.toString("base64url"),
    );
    return { ciphertext: parts.join("."), keyId: key.id };
  }

  /** Opens a sealed secret; fails if the key is unknown, the data altered or the id differs. */
  open(ciphertext: string, connectionId: string): string {
    const [version, keyId, iv, tag, body, ...rest] = ciphertext.split(".");
    if (
      version !== ENVELOPE_VERSION ||
      !keyId ||
      !iv ||
      !tag ||
      body === undefined ||
      rest.length
    ) {
      throw new SecretDecryptError("The stored secret has an unknown format.");
    }
    const key = [this.keyring.current, ...this.keyring.previous].find((k) => k.id === keyId);
    if (!key) {
      throw new SecretDecryptError(
        `The stored secret was sealed with key ${keyId}, which is not configured ` +
          "(set HYPERLENS_SECRET_KEY, or list the old key in HYPERLENS_SECRET_KEY_PREVIOUS).",
        keyId,
      );
    }
    try {
      const decipher = createDecipheriv("aes-256-gcm", key.bytes, Buffer.from(iv, "base64url"));
      decipher.setAAD(Buffer.from(connectionId, "utf8"));
      decipher.setAuthTag(Buffer.from(tag, "base64url"));
      return Buffer.concat([
        decipher.update(Buffer.from(body, "base64url")),
        decipher.final(),
      ]).toString("utf8");
    } catch {
      throw new SecretDecryptError(
        `The stored secret could not be decrypted with key ${keyId}: it was altered or belongs to another connection.`,
      );
    }
  }

  /** True when a secret was sealed with an older key and should be re-sealed. */
  isStale(sealed: SealedSecret): boolean {
    return sealed.keyId !== this.keyring.current.id;
  }
}

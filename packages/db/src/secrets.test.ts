import { chmodSync, mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  generateSecretKeyText,
  keyFilePath,
  loadKeyring,
  parseSecretKey,
  SecretBox,
  SecretDecryptError,
  SecretKeyFormatError,
} from "./secrets.ts";

const box = (key = generateSecretKeyText(), previousKeys?: string) =>
  new SecretBox(loadKeyring({ key, previousKeys, dataDir: "/nonexistent" }));

describe("secret encryption", () => {
  it("round-trips a secret and never stores the plaintext", () => {
    const secrets = box();
    const sealed = secrets.seal("pve-token-secret-123", "conn-1");
    expect(sealed.ciphertext).not.toContain("pve-token-secret-123");
    expect(sealed.ciphertext.startsWith(`v1.${sealed.keyId}.`)).toBe(true);
    expect(secrets.open(sealed.ciphertext, "conn-1")).toBe("pve-token-secret-123");
  });

  it("uses a fresh nonce each time", () => {
    const secrets = box();
    expect(secrets.seal("same", "c").ciphertext).not.toBe(secrets.seal("same", "c").ciphertext);
  });

  it("fails to decrypt with the wrong key", () => {
    const sealed = box().seal("secret", "conn-1");
    expect(() => box().open(sealed.ciphertext, "conn-1")).toThrow(SecretDecryptError);
  });

  it("binds the ciphertext to its connection id", () => {
    const secrets = box();
    const sealed = secrets.seal("secret", "conn-1");
    expect(() => secrets.open(sealed.ciphertext, "conn-2")).toThrow(/another connection/);
  });

  it("detects tampering", () => {
    const secrets = box();
    const parts = secrets.seal("secret", "c").ciphertext.split(".");
    parts[4] = Buffer.from("xxxxxx").toString("base64url");
    expect(() => secrets.open(parts.join("."), "c")).toThrow(SecretDecryptError);
  });

  it("decrypts with a previous key during rotation and marks the secret stale", () => {
    const oldKey = generateSecretKeyText();
    const sealed = box(oldKey).seal("secret", "c");
    const rotated = box(generateSecretKeyText(), oldKey);
    expect(rotated.open(sealed.ciphertext, "c")).toBe("secret");
    expect(rotated.isStale(sealed)).toBe(true);
    expect(rotated.isStale(rotated.seal("secret", "c"))).toBe(false);
  });

  it("refuses a key of the wrong shape without echoing it", () => {
    const bad = "not-a-real-key-but-a-password";
    expect(() => parseSecretKey(bad, "HYPERLENS_SECRET_KEY")).toThrow(SecretKeyFormatError);
    try {
      parseSecretKey(bad, "HYPERLENS_SECRET_KEY");
    } catch (error) {
      expect((error as Error).message).toContain("HYPERLENS_SECRET_KEY must be a 32-byte key");
      expect((error as Error).message).not.toContain(bad);
    }
    expect(() => parseSecretKey(Buffer.alloc(16).toString("base64"), "K")).toThrow(
      SecretKeyFormatError,
    );
  });

  it("accepts hex keys", () => {
    expect(parseSecretKey("ab".repeat(32), "K").bytes.length).toBe(32);
  });

  it("creates a key file with mode 0600 on first start and reuses it", () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "hl-key-"));
    const first = loadKeyring({ dataDir });
    expect(statSync(keyFilePath(dataDir)).mode & 0o777).toBe(0o600);
    expect(loadKeyring({ dataDir }).current.id).toBe(first.current.id);
  });

  it("refuses a key file that others can read", () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), "hl-key-"));
    loadKeyring({ dataDir });
    chmodSync(keyFilePath(dataDir), 0o644);
    expect(() => loadKeyring({ dataDir })).toThrow(/chmod 600/);
  });
});

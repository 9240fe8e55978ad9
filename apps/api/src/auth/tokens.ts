// Random bearer secrets (session cookies, API tokens, setup tokens) and their stored hashes.
// A database leak reveals only hashes; SHA-256 suffices because the secrets are 32 random bytes.
import { createHash, randomBytes } from "node:crypto";

/** 32 random bytes, base64url, with an optional readable prefix. */
export function newSecret(prefix = ""): string {
  return `${prefix}${randomBytes(32).toString("base64url")}`;
}

/** The hash stored in place of a secret. */
export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

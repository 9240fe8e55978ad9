// Where, and as whom, a stored connection secret is presented. A secret goes only to the target it
// was entered for: an edit that changes the target must carry the secret again (SPEC §1).
import type { Connection, ConnectionKind } from "@hyperlens/db";
import type { FieldProblem } from "./errors.ts";

/**
 * The stored fields that say where (address) and as whom (user name, Proxmox token id) a secret is
 * presented. Director's org is the part of the user name after "@", so it is covered too.
 */
export type SecretTarget = Pick<Connection, "baseUrl" | "username" | "tokenId">;

/** The target as it will be stored, from a save form's fields: the one normalisation of them. */
export function secretTargetOf(
  kind: ConnectionKind,
  input: { url: string; username: string; tokenId?: string | null },
): SecretTarget {
  return {
    baseUrl: input.url.trim().replace(/\/+$/, ""),
    username: input.username.trim(),
    tokenId: kind === "PROXMOX" ? input.tokenId?.trim() || null : null,
  };
}

const WHAT_CHANGED: Record<keyof SecretTarget, string> = {
  baseUrl: "address",
  username: "user name",
  tokenId: "token id",
};

/**
 * The problem to report when an edit that keeps the stored secret changes its target, or none.
 * Compared exactly as stored: any difference, even of case, counts as a new target.
 */
export function keptSecretTargetProblem(
  stored: SecretTarget,
  next: SecretTarget,
): FieldProblem | undefined {
  const changed = (Object.keys(WHAT_CHANGED) as (keyof SecretTarget)[]).filter(
    (field) => stored[field] !== next[field],
  );
  if (changed.length === 0) return undefined;
  const names = changed.map((field) => WHAT_CHANGED[field]).join(" and ");
  return {
    field: "secret",
    message:
      `The ${names} changed: give the secret again. ` +
      "A stored secret is only sent to the address and user it was entered for.",
  };
}

// Where, and as whom, a stored connection secret is presented, and how the server there is
// recognised. A secret goes only to the target it was entered for, checked at least as strictly:
// an edit that changes the target or loosens TLS trust must carry the secret again (docs/behaviour.md §1).
import type { Connection, ConnectionKind } from "@hyperlens/db";
import type { FieldProblem } from "../errors.ts";

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

/**
 * The stored fields that say which server at the address is believed to be the target: with
 * verification off any certificate is, else one from a public CA or from `caPem` (in addition).
 */
export type SecretTrust = Pick<Connection, "verifyTls" | "caPem">;

/** The trust as it will be stored, from a save form's fields; a field left out keeps the stored one. */
export function secretTrustOf(
  input: { verifyTls?: boolean | null; caPem?: string | null },
  stored: SecretTrust | null,
): SecretTrust {
  return {
    verifyTls: input.verifyTls ?? stored?.verifyTls ?? true,
    caPem: input.caPem === undefined ? (stored?.caPem ?? null) : input.caPem?.trim() || null,
  };
}

/**
 * The trust fields whose change lets a server the stored setting refused be taken for the target.
 * Tightening (verification on, a CA certificate removed) and CA edits while verification stays
 * off are not; any other CA text counts, as certificates are not compared one by one.
 */
function loosenedTrust(stored: SecretTrust, next: SecretTrust): (keyof SecretTrust)[] {
  if (!stored.verifyTls) return [];
  if (!next.verifyTls) return ["verifyTls"];
  return next.caPem !== null && next.caPem !== stored.caPem ? ["caPem"] : [];
}

const WHAT_CHANGED: Record<keyof SecretTarget | keyof SecretTrust, string> = {
  baseUrl: "address",
  username: "user name",
  tokenId: "token id",
  verifyTls: "TLS verification",
  caPem: "CA certificate",
};

/**
 * The problem to report when an edit that keeps the stored secret changes its target or loosens
 * its TLS trust, or none. Targets are compared exactly as stored: any difference, even of case,
 * counts as a new target.
 */
export function keptSecretTargetProblem(
  stored: SecretTarget & SecretTrust,
  next: SecretTarget & SecretTrust,
): FieldProblem | undefined {
  const retargeted = (["baseUrl", "username", "tokenId"] as const).filter(
    (field) => stored[field] !== next[field],
  );
  const changed = [...retargeted, ...loosenedTrust(stored, next)];
  if (changed.length === 0) return undefined;
  const names = changed.map((field) => WHAT_CHANGED[field]).join(" and ");
  return {
    field: "secret",
    message:
      `The ${names} changed: give the secret again. ` +
      "A stored secret is only sent to the address and user it was entered for, " +
      "to a server recognised at least as strictly as then.",
  };
}

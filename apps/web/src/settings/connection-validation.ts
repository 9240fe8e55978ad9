// Checks the connection form can make before asking the server, so a person sees the problem
// beside the field at once. The server checks again and its problems are shown the same way.
import type { ConnectionKind } from "@hyperlens/shared";
import type { MessageKey } from "../i18n/i18n.ts";

/**
 * Where, and as whom, a stored secret was entered for, and how the server there was recognised:
 * the fields that, changed (or, for TLS, loosened), need it again.
 */
export interface SecretTargetDraft {
  url: string;
  username: string;
  tokenId: string;
  verifyTls: boolean;
  caPem: string;
}

/** The fields of the connection form, as typed. */
export interface ConnectionDraft {
  id?: string;
  kind: ConnectionKind;
  name: string;
  url: string;
  username: string;
  tokenId: string;
  secret: string;
  caPem: string;
  verifyTls: boolean;
  isProvider: boolean;
  isActive: boolean;
  /** Seconds between scheduled syncs, as typed (60 to a week, as the server checks). */
  syncIntervalSeconds: string;
  /** Proxmox: requests at once per connection, as typed (docs/behaviour.md §3.7). */
  maxConcurrentRequests: string;
  /** Proxmox: requests at once per node, as typed. */
  maxRequestsPerNode: string;
  /** The limits as loaded: only a changed one is sent, so a default is never stored as set. */
  loadedLimits: RequestLimitsDraft;
  /** Seconds between light polls, as typed (docs/behaviour.md §8.7). */
  lightPollSeconds: string;
  /** The target the stored secret was entered for; null when no secret is stored. */
  storedSecretFor: SecretTargetDraft | null;
}

/** The request limits of a Proxmox connection, as typed. */
export type RequestLimitsDraft = Pick<ConnectionDraft, RequestLimitField>;
type RequestLimitField = "maxConcurrentRequests" | "maxRequestsPerNode";
/** The Proxmox request limits, as form fields. */
export const REQUEST_LIMIT_FIELDS: readonly RequestLimitField[] = [
  "maxConcurrentRequests",
  "maxRequestsPerNode",
];

/** A limit is a whole number from 1 to 16, as the server checks. */
function isRequestLimit(typed: string): boolean {
  const text = typed.trim();
  return /^\d+$/.test(text) && Number(text) >= 1 && Number(text) <= 16;
}

/** The scheduled-sync interval's bounds, in seconds, as the server checks them. */
export const SYNC_INTERVAL_SECONDS = { min: 60, max: 7 * 24 * 3600, default: 900 } as const;

/** An interval is a whole number of seconds within the bounds. */
function isSyncInterval(typed: string): boolean {
  const text = typed.trim();
  return (
    /^\d+$/.test(text) &&
    Number(text) >= SYNC_INTERVAL_SECONDS.min &&
    Number(text) <= SYNC_INTERVAL_SECONDS.max
  );
}

/** Problems by field: message keys from the form's own checks. */
export type DraftProblems = Partial<Record<keyof ConnectionDraft, MessageKey>>;

/** Checks a draft; an empty object means it may be sent. */
export function validateDraft(draft: ConnectionDraft): DraftProblems {
  const problems: DraftProblems = {};
  if (!draft.name.trim()) problems.name = "settings.problem.required";
  const url = draft.url.trim();
  if (!url) problems.url = "settings.problem.required";
  else if (!/^https:\/\//i.test(url)) problems.url = "settings.problem.httpsOnly";
  else {
    try {
      new URL(url);
    } catch {
      problems.url = "settings.problem.badUrl";
    }
  }
  const username = draft.username.trim();
  if (!username) problems.username = "settings.problem.required";
  else if (draft.kind === "VCD" && username.includes(":"))
    problems.username = "settings.problem.vcdColon";
  else if (draft.kind === "VCD" && !/^[^@\s]+@[^@\s]+$/.test(username))
    problems.username = "settings.problem.vcdUserOrg";
  else if (draft.kind === "PROXMOX" && !/^[^@\s]+@[^@\s!]+$/.test(username))
    problems.username = "settings.problem.pveUserRealm";
  if (draft.kind === "PROXMOX") {
    for (const field of REQUEST_LIMIT_FIELDS) {
      if (!isRequestLimit(draft[field])) problems[field] = "settings.problem.requestLimit";
    }
  }
  if (!isLightPollSeconds(draft.lightPollSeconds)) {
    problems.lightPollSeconds = "settings.problem.lightPollSeconds";
  }
  if (!isSyncInterval(draft.syncIntervalSeconds))
    problems.syncIntervalSeconds = "settings.problem.syncInterval";
  if (!draft.secret && !keepsStoredSecret(draft)) {
    problems.secret = draft.storedSecretFor
      ? "settings.problem.secretAgain"
      : "settings.problem.secretFirst";
  }
  return problems;
}

/** 0 (off) or a whole number of seconds from 5 to 3600, as the server accepts. */
function isLightPollSeconds(typed: string): boolean {
  if (!/^\d+$/.test(typed.trim())) return false;
  const seconds = Number(typed);
  return seconds === 0 || (seconds >= 5 && seconds <= 3600);
}

const targetOf = (draft: SecretTargetDraft): SecretTargetDraft => ({
  url: draft.url.trim().replace(/\/+$/, ""),
  username: draft.username.trim(),
  tokenId: draft.tokenId.trim(),
  verifyTls: draft.verifyTls,
  caPem: draft.caPem.trim(),
});

/**
 * Whether `now` accepts a server certificate `then` refused: verification turned off, or a CA
 * certificate added or replaced while it is on. Turning it on or removing the CA tightens.
 */
function isTrustLoosened(then: SecretTargetDraft, now: SecretTargetDraft): boolean {
  if (!then.verifyTls) return false;
  return !now.verifyTls || (now.caPem !== "" && now.caPem !== then.caPem);
}

/**
 * Whether a blank secret keeps the stored one: a secret is stored and the draft still points where,
 * and as whom, it was entered for, with the server checked at least as strictly. The server
 * applies the same rule (it refuses a blank secret otherwise), so the form says so before sending.
 */
export function keepsStoredSecret(draft: ConnectionDraft): boolean {
  if (!draft.storedSecretFor) return false;
  const [now, then] = [targetOf(draft), targetOf(draft.storedSecretFor)];
  return (
    now.url === then.url &&
    now.username === then.username &&
    now.tokenId === then.tokenId &&
    !isTrustLoosened(then, now)
  );
}

/**
 * What the three save mutations take (tokenId only Proxmox's, isProvider only Director's); tsc
 * checks it against each source's input type where connection-form.tsx sends it.
 */
export interface ConnectionInput {
  id?: string;
  name: string;
  url: string;
  username: string;
  secret?: string;
  caPem: string | null;
  verifyTls: boolean;
  isActive: boolean;
  syncIntervalSeconds: number;
  tokenId?: string | null;
  isProvider?: boolean;
  maxConcurrentRequests?: number;
  maxRequestsPerNode?: number;
  lightPollSeconds: number;
}

/** The mutation input for a draft. A blank secret on an edit keeps the stored one. */
export function inputFromDraft(draft: ConnectionDraft): ConnectionInput {
  const input: ConnectionInput = {
    name: draft.name.trim(),
    url: draft.url.trim(),
    username: draft.username.trim(),
    caPem: draft.caPem.trim() || null,
    verifyTls: draft.verifyTls,
    isActive: draft.isActive,
    lightPollSeconds: Number(draft.lightPollSeconds.trim()),
    syncIntervalSeconds: Number(draft.syncIntervalSeconds.trim()),
  };
  if (draft.id) input.id = draft.id;
  if (draft.secret) input.secret = draft.secret;
  if (draft.kind === "PROXMOX") {
    input.tokenId = draft.tokenId.trim() || null;
    for (const field of REQUEST_LIMIT_FIELDS) {
      const typed = draft[field].trim();
      if (typed !== draft.loadedLimits[field].trim()) input[field] = Number(typed);
    }
  }
  if (draft.kind === "VCD") input.isProvider = draft.isProvider;
  return input;
}

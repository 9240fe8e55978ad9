/** A non-GET call a source declares for logging in or out, e.g. Proxmox `POST /api2/json/access/ticket`. */
export interface AllowedWrite {
  method: "POST" | "DELETE";
  /** Matched against the whole request path (without query string); a partial match does not count. */
  pathPattern: RegExp;
}

/** What a request is for; anything but `read` must be on the source's {@link AllowedWrite} list. */
export type RequestPurpose = "read" | "login" | "logout";

/**
 * Decides whether a request may be sent. Returns `null` if allowed, or the reason it is refused.
 * GET is always allowed; anything else only when marked as a login/logout and declared by the source.
 */
export function checkReadOnly(
  method: string,
  path: string,
  purpose: RequestPurpose,
  allowed: readonly AllowedWrite[],
): string | null {
  const verb = method.toUpperCase();
  if (verb === "GET") return null;
  // TRAP: docs/behaviour.md §2 — Hyperlens never writes to a hypervisor; only declared logins/logouts pass.
  if (purpose === "read") {
    return `${verb} is not a read; only GET, and declared login/logout calls, are sent`;
  }
  const bare = path.split("?")[0] ?? path;
  const ok = allowed.some((rule) => rule.method === verb && matchesWhole(rule.pathPattern, bare));
  return ok ? null : `${verb} ${bare} is not a declared ${purpose} call for this source`;
}

function matchesWhole(pattern: RegExp, path: string): boolean {
  // A fresh non-global copy: a shared /g regexp would carry lastIndex between calls.
  const match = new RegExp(pattern.source, pattern.flags.replace("g", "").replace("y", "")).exec(
    path,
  );
  return match !== null && match.index === 0 && match[0].length === path.length;
}

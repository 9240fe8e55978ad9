const SECRET_QUERY_NAME = /pass|secret|token|ticket|key|auth|sig|session|cookie|credential/i;

/**
 * Returns `path` with the values of secret-looking query parameters replaced by `***`, for log
 * lines and error messages.
 */
export function redactPath(path: string): string {
  const at = path.indexOf("?");
  if (at < 0) return path;
  const params = new URLSearchParams(path.slice(at + 1));
  const out: string[] = [];
  for (const [name, value] of params) {
    const shown = SECRET_QUERY_NAME.test(name) ? "***" : value;
    out.push(`${encodeURIComponent(name)}=${encodeURIComponent(shown)}`);
  }
  return `${path.slice(0, at)}?${out.join("&")}`;
}

/**
 * Replaces every occurrence of the given secret strings in `text` with `***`. Defence in depth for
 * server messages that might echo part of a request.
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  let out = text;
  for (const secret of secrets) {
    if (secret.length >= 4) out = out.split(secret).join("***");
  }
  return out;
}

const SCHEME_WORDS = /^(basic|bearer|pveapitoken|pveauthcookie)$/i;
// vCenter and Director carry their session tokens in headers of their own.
const SENSITIVE_HEADERS = new Set([
  "authorization",
  "cookie",
  "proxy-authorization",
  "vmware-api-session-id",
  "x-vmware-vcloud-access-token",
  "x-vcloud-authorization",
]);

/**
 * Collects the secret values carried by a request (credential headers and their parts, and for a
 * login the form or JSON body values) so they can be scrubbed from anything we print.
 */
export function collectRequestSecrets(
  headers: Record<string, string>,
  body: string | undefined,
): string[] {
  const secrets: string[] = [];
  for (const [name, value] of Object.entries(headers)) {
    if (!SENSITIVE_HEADERS.has(name.toLowerCase())) continue;
    secrets.push(value);
    // "PVEAPIToken=user@pam!id=SECRET", "Basic xyz", "PVEAuthCookie=ticket; other=…"
    for (const part of value.split(/[\s;=]+/)) {
      if (!SCHEME_WORDS.test(part)) secrets.push(part);
    }
  }
  if (body !== undefined) {
    secrets.push(body);
    for (const [, value] of new URLSearchParams(body)) secrets.push(value);
  }
  return secrets.filter((s) => s.length >= 4).sort((a, b) => b.length - a.length);
}

// Where a webhook may point: the outbound address policy connections use (docs/operations.md,
// "Outbound address policy"), plus https. Plain http and loopback/link-local addresses are both
// lab settings, allowed together by HYPERLENS_ALLOW_LOOPBACK_TARGETS=1.
import { checkTargetUrl, type TargetAddressPolicy } from "@hyperlens/hyper-http";

const MAX_URL = 2000;

/** The scheme and form of a webhook address, without resolving it: a message, or null. */
export function checkWebhookUrlForm(url: string, policy: TargetAddressPolicy): string | null {
  if (url.length > MAX_URL) return `Use at most ${MAX_URL} characters.`;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `The address ${JSON.stringify(url)} is not a valid URL; use the form https://host/path`;
  }
  const isHttpAllowed = policy.allowLoopbackTargets;
  // TRAP: docs/behaviour.md §14.21 — over plain http the event (inventory data) and its
  // signature travel in clear text.
  if (parsed.protocol !== "https:" && !(isHttpAllowed && parsed.protocol === "http:")) {
    return `Webhooks are sent over https only; the address ${parsed.protocol}//${parsed.host} is not https (plain http needs HYPERLENS_ALLOW_LOOPBACK_TARGETS=1, labs only)`;
  }
  if (parsed.username !== "" || parsed.password !== "")
    return "Put no user name or password in the address; receivers check the signature instead";
  return null;
}

/** Save-time check: the form, then the resolved addresses under the policy. */
export async function checkWebhookUrl(
  url: string,
  policy: TargetAddressPolicy,
): Promise<string | null> {
  return checkWebhookUrlForm(url, policy) ?? (await checkTargetUrl(url, policy));
}

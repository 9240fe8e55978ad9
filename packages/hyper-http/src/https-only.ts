/**
 * Checks that a hypervisor address is an absolute `https:` URL. Returns `null` when it is, or the
 * message to show. The connection service uses this at save time and the client at request time,
 * so the rule and its wording are the same in both places.
 */
export function checkHttpsUrl(url: string): string | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return `The address ${JSON.stringify(url)} is not a valid URL; use the form https://host:port`;
  }
  // TRAP: docs/behaviour.md §1/§2 — plain http would send tokens and passwords in clear text.
  if (parsed.protocol !== "https:") {
    return `Hyperlens only talks to hypervisors over https; the address ${displayAddress(parsed)} is not https`;
  }
  if (parsed.username !== "" || parsed.password !== "") {
    return "Put the login in the connection's login fields, not in the address";
  }
  return null;
}

// Credentials in the userinfo part never reach a message.
function displayAddress(url: URL): string {
  return `${url.protocol}//${url.host}${url.pathname === "/" ? "" : url.pathname}`;
}

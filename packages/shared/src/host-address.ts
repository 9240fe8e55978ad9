// One spelling of a server's address, so the same vCenter named by Director (`url` of its
// registered vCenters) and by a Hyperlens connection (`baseUrl`) compares equal (docs/behaviour.md §10).

/**
 * The lower-case host of an address, with `:port` only when the port is not 443:
 * `https://VC01.example.com:443/sdk` → `vc01.example.com`, `https://vc01:8443` → `vc01:8443`.
 * A bare host (`vc01.example.com`) is read as https. Null when there is no host to read.
 */
export function normalizeHost(address: string): string | null {
  const text = address.trim();
  if (text === "") return null;
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(text) ? text : `https://${text}`);
  } catch {
    return null;
  }
  // A fully qualified name may end in a dot; it names the same host.
  const host = url.hostname.toLowerCase().replace(/\.$/, "");
  if (host === "") return null;
  // URL drops a scheme's own default port: http's is 80, which is not the 443 we leave out.
  const port = url.port || (url.protocol === "http:" ? "80" : "443");
  // TRAP: docs/behaviour.md §10 — two servers on one host differ by port; dropping it would link VMs of another vCenter.
  return port === "443" ? host : `${host}:${port}`;
}

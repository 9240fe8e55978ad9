// Addresses a guest reports that are its own but reach nothing outside it: they are kept as
// rejected, with this reason, rather than shown as the VM's IPs (docs/behaviour.md §10 explained IPs).

/**
 * Why a guest-reported address is not one to list as the VM's: `"loopback address"` (127.0.0.0/8,
 * ::1), `"link-local address"` (169.254.0.0/16, fe80::/10), or `undefined` for any other address.
 */
export function localAddressReason(
  address: string,
): "loopback address" | "link-local address" | undefined {
  const lower = address.toLowerCase();
  if (address.startsWith("127.") || lower === "::1") return "loopback address";
  if (address.startsWith("169.254.") || /^fe[89ab][0-9a-f]:/.test(lower)) {
    return "link-local address";
  }
  return undefined;
}

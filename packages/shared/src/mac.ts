/**
 * Normalizes a MAC address to lower-case colon form ("bc:24:11:ab:cd:ef"), so MACs from a VM's
 * configuration and from its guest compare equal whatever their case (docs/behaviour.md §3). Accepts ":", "-"
 * or "." separators or none; returns `null` for anything that is not 6 bytes of hex.
 */
export function normalizeMac(text: string | null | undefined): string | null {
  if (!text) return null;
  const hex = text.trim().replace(/[:\-.]/g, "");
  if (!/^[0-9a-fA-F]{12}$/.test(hex)) return null;
  return (hex.toLowerCase().match(/../g) ?? []).join(":");
}

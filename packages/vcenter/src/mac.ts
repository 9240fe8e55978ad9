/**
 * Normalizes a MAC address to lower-case colon form ("00:50:56:b1:22:7d"). Accepts ":" or "-"
 * separators or none, any case; returns `null` for anything that is not 6 bytes of hex.
 */
export function normalizeMac(text: string | null | undefined): string | null {
  if (!text) return null;
  const hex = text.trim().replace(/[:\-.]/g, "");
  if (!/^[0-9a-fA-F]{12}$/.test(hex)) return null;
  return (hex.toLowerCase().match(/../g) ?? []).join(":");
}

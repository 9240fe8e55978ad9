const UNITS: Record<string, number> = {
  "": 1,
  B: 1,
  K: 1024,
  M: 1024 ** 2,
  G: 1024 ** 3,
  T: 1024 ** 4,
  P: 1024 ** 5,
};

/** Parses a Proxmox disk size ("32G", "4M", "1.5T", "512") into bytes; `null` if unreadable. Units are binary. */
export function parseSizeToBytes(text: string | undefined): number | null {
  if (text === undefined) return null;
  const match = /^\s*(\d+(?:\.\d+)?)\s*([KMGTPB]?)i?B?\s*$/i.exec(text);
  if (!match?.[1]) return null;
  const unit = UNITS[(match[2] ?? "").toUpperCase()];
  if (unit === undefined) return null;
  return Math.round(Number(match[1]) * unit);
}

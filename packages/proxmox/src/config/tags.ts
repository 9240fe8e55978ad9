/** Splits a Proxmox tag list; newer versions separate with ";", older configs with "," or spaces. */
export function parseTags(value: unknown): string[] {
  if (typeof value !== "string") return [];
  const seen = new Set<string>();
  for (const tag of value.split(/[;,\s]+/)) {
    if (tag !== "") seen.add(tag);
  }
  return [...seen];
}

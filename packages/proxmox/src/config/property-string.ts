/** A Proxmox property string ("virtio=AA:BB:…,bridge=vmbr0,firewall=1") split into its parts. */
export interface PropertyString {
  /** Items in order as [key, value]; an item without "=" has key "" (the default key). */
  items: [string, string][];
  /** Last value per key (keys lower-cased). */
  values: Map<string, string>;
}

/** Splits a Proxmox property string at commas and each item at its first "=". */
export function parsePropertyString(text: string): PropertyString {
  const items: [string, string][] = [];
  const values = new Map<string, string>();
  for (const raw of text.split(",")) {
    const part = raw.trim();
    if (part === "") continue;
    const at = part.indexOf("=");
    const item: [string, string] =
      at < 0 ? ["", part] : [part.slice(0, at).trim().toLowerCase(), part.slice(at + 1).trim()];
    items.push(item);
    values.set(item[0], item[1]);
  }
  return { items, values };
}

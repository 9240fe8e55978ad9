import { parsePropertyString } from "./property-string.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The UUID the guest sees as its SMBIOS system UUID, from the QEMU `smbios1` option
 * ("uuid=863b…,manufacturer=…"), lower-case. Proxmox only base64-encodes the free-text parts, never
 * the uuid; anything that is not a UUID is left out rather than stored as one.
 */
export function smbiosUuid(value: unknown): string | null {
  if (typeof value !== "string") return null;
  const uuid = parsePropertyString(value).values.get("uuid");
  return uuid && UUID.test(uuid) ? uuid.toLowerCase() : null;
}

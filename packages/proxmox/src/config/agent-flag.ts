import { parsePropertyString } from "./property-string.ts";

/**
 * Reads the QEMU `agent` option: "1", "1,fstrim_cloned_disks=1", "enabled=1,type=virtio", 1 or
 * absent. Only an enabled agent is worth asking for interfaces.
 */
export function isAgentEnabled(value: unknown): boolean {
  if (value === 1 || value === true) return true;
  if (typeof value !== "string") return false;
  const { items, values } = parsePropertyString(value);
  const enabled = values.get("enabled") ?? (items[0]?.[0] === "" ? items[0][1] : undefined);
  return enabled === "1" || enabled === "yes" || enabled === "on" || enabled === "true";
}

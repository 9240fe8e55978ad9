import { normalizeMac } from "@hyperlens/shared";
import { parsePropertyString } from "./property-string.ts";

/** A virtual NIC of a QEMU VM, from a `netN` config line. */
export interface QemuNic {
  /** Config key, e.g. "net0". */
  key: string;
  index: number;
  /** NIC model: virtio, e1000, e1000e, vmxnet3, rtl8139, … */
  model: string | null;
  /** Lower-case colon form, or null when the line carries none. */
  mac: string | null;
  bridge: string | null;
  vlanTag: number | null;
  isFirewalled: boolean;
  isLinkDown: boolean;
}

const NIC_KEY = /^net(\d+)$/;

/**
 * Parses `netN: virtio=AA:BB:CC:DD:EE:FF,bridge=vmbr0,tag=10,firewall=1`. The model is whichever
 * key carries the MAC, so a model we have never heard of still yields its MAC. The explicit
 * `model=…,macaddr=…` form is read too.
 */
export function parseQemuNic(key: string, value: string): QemuNic | null {
  const match = NIC_KEY.exec(key);
  if (!match) return null;
  const { items, values } = parsePropertyString(value);
  let model = values.get("model") ?? null;
  let mac = normalizeMac(values.get("macaddr"));
  if (mac === null) {
    // TRAP: docs/behaviour.md §3 — any model counts; matching only "virtio=" would drop the IPs of e1000/vmxnet3 VMs.
    for (const [name, itemValue] of items) {
      const candidate = normalizeMac(itemValue);
      if (name !== "" && candidate !== null) {
        model = name;
        mac = candidate;
        break;
      }
    }
  }
  if (model === null) {
    const first = items[0];
    if (first && first[0] !== "" && !["bridge", "tag", "firewall"].includes(first[0])) {
      model = first[0];
    }
  }
  return {
    key,
    index: Number(match[1]),
    model,
    mac,
    bridge: values.get("bridge") ?? null,
    vlanTag: toInt(values.get("tag")),
    isFirewalled: values.get("firewall") === "1",
    isLinkDown: values.get("link_down") === "1",
  };
}

function toInt(text: string | undefined): number | null {
  return text !== undefined && /^\d+$/.test(text) ? Number(text) : null;
}

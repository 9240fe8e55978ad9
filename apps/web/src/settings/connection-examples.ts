// The example address and user the connection form shows for each kind of source.
import type { ConnectionKind } from "@hyperlens/shared";
import { t } from "../i18n/i18n.ts";

const EXAMPLES: Record<ConnectionKind, { url: string; username: string }> = {
  PROXMOX: { url: "https://pve.example:8006", username: "hyperlens@pve" },
  VCD: { url: "https://vcd.example.com", username: "hyperlens@acme" },
  VCENTER: { url: "https://vcenter.example.com", username: "hyperlens@vsphere.local" },
};

/** The example address and user for a kind, for placeholders. */
export function connectionExample(kind: ConnectionKind): { url: string; username: string } {
  return EXAMPLES[kind];
}

/** The address field's hint, with this kind's own example address. */
export function addressHint(kind: ConnectionKind): string {
  return t("settings.hint.url", { example: EXAMPLES[kind].url });
}

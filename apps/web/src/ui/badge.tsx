import type { ConnectionKind } from "@hyperlens/shared";
import type { ReactNode } from "react";
import { t } from "../i18n/i18n.ts";
import type { Tone } from "./tone.ts";

/** A small coloured label in a theme tone. */
export function Badge(props: { tone: Tone; children: ReactNode; title?: string }) {
  return (
    <span className={`badge tone-${props.tone}`} title={props.title}>
      {props.children}
    </span>
  );
}

const SOURCE_CLASS: Record<ConnectionKind, string> = {
  PROXMOX: "source-proxmox",
  VCD: "source-vcd",
  VCENTER: "source-vcenter",
};

/** The Source badge: which kind of hypervisor a row came from. */
export function SourceBadge(props: { source: ConnectionKind }) {
  return (
    <span className={`badge ${SOURCE_CLASS[props.source]}`}>{t(`source.${props.source}`)}</span>
  );
}

// What a group of the unified list is (docs/behaviour.md §9.45): the column a guest is grouped by,
// the key(s) a guest falls under, and the condition that lists one group's guests. The groups
// query counts with keysOfGuest and the list narrows with groupWhere, so a group's count and the
// rows listed under it always agree.

import type { Prisma } from "@hyperlens/db";
import { CONNECTION_KINDS, type ConnectionKind } from "@hyperlens/shared";
import { ValidationError } from "../errors.ts";
import { builder } from "./builder.ts";

/** What the list can be grouped by. */
export const GROUP_BY = ["SOURCE", "CLUSTER", "NODE", "ORG", "VDC", "TAG"] as const;
export type GroupBy = (typeof GROUP_BY)[number];

export const VirtualMachineGroupByEnum = builder.enumType("VirtualMachineGroupBy", {
  description:
    "What the unified list is grouped by. NODE is the Proxmox node, else the ESXi host; TAG puts a guest with several tags in each tag's group.",
  values: GROUP_BY,
});

export const VirtualMachineGroupInput = builder.inputType("VirtualMachineGroupInput", {
  description: "One group of virtualMachineGroups: its guests only.",
  fields: (t) => ({
    by: t.field({ type: VirtualMachineGroupByEnum, required: true }),
    key: t.string({
      required: false,
      description:
        "The group's key as virtualMachineGroups answered it; null: the guests with no value.",
    }),
  }),
});

/** The columns a grouping reads of each guest. */
export const GROUP_COLUMNS = {
  SOURCE: ["source"],
  CLUSTER: ["clusterName"],
  NODE: ["nodeName", "hostName"],
  ORG: ["orgName"],
  VDC: ["vdcName"],
  TAG: ["tags"],
} as const satisfies Record<GroupBy, readonly Prisma.VirtualMachineScalarFieldEnum[]>;

/** The grouped columns of one guest (or one distinct combination of them). */
export interface GroupColumns {
  source?: ConnectionKind;
  clusterName?: string | null;
  nodeName?: string | null;
  hostName?: string | null;
  orgName?: string | null;
  vdcName?: string | null;
  tags?: string[];
}

/** The groups a guest falls under: one key, null for none; each of its tags for TAG. */
export function keysOfGuest(by: GroupBy, guest: GroupColumns): (string | null)[] {
  switch (by) {
    case "SOURCE":
      return [guest.source ?? null];
    case "CLUSTER":
      return [guest.clusterName ?? null];
    case "NODE":
      return [guest.nodeName ?? guest.hostName ?? null];
    case "ORG":
      return [guest.orgName ?? null];
    case "VDC":
      return [guest.vdcName ?? null];
    case "TAG": {
      const tags = [...new Set(guest.tags ?? [])];
      return tags.length > 0 ? tags : [null];
    }
  }
}

const NOTHING: Prisma.VirtualMachineWhereInput = { id: { in: [] } };

/** The guests of one group: exactly those keysOfGuest puts under `key`. */
export function groupWhere(by: GroupBy, key: string | null): Prisma.VirtualMachineWhereInput {
  switch (by) {
    case "SOURCE": {
      if (key === null) return NOTHING;
      const source = CONNECTION_KINDS.find((kind) => kind === key);
      if (!source)
        throw new ValidationError(
          `Expected a source: ${CONNECTION_KINDS.join(", ")}.`,
          "filter.group.key",
        );
      return { source };
    }
    case "CLUSTER":
      return { clusterName: key };
    case "NODE":
      // TRAP: docs/behaviour.md §9.45 — a guest with a node is counted under its node even when it
      // also names a host; without nodeName: null the host's group would list it too.
      return key === null
        ? { nodeName: null, hostName: null }
        : { OR: [{ nodeName: key }, { nodeName: null, hostName: key }] };
    case "ORG":
      return { orgName: key };
    case "VDC":
      return { vdcName: key };
    case "TAG":
      return key === null ? { tags: { isEmpty: true } } : { tags: { has: key } };
  }
}

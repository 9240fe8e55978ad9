// What a changed guest field is called in the list of what changed (docs/behaviour.md §9.51): the
// servers table's and the drawer's own labels where they have one, in the viewer's language.
import type { VmDiffField } from "@hyperlens/shared";
import { type MessageKey, t } from "../i18n/i18n.ts";

const LABELS: Record<VmDiffField, MessageKey> = {
  name: "servers.column.name",
  kind: "servers.filter.kind",
  state: "servers.column.state",
  cpuCount: "servers.column.cpu",
  memoryBytes: "servers.column.memory",
  diskTotalBytes: "servers.column.disk",
  guestOs: "detail.guestOs",
  guestOsCode: "changes.field.guestOsCode",
  biosUuid: "detail.biosUuid",
  instanceUuid: "detail.instanceUuid",
  isTemplate: "detail.template",
  tags: "detail.tags",
  backing: "changes.field.backing",
  nics: "detail.nics",
  ips: "servers.column.ips",
  primaryAddress: "addressRules.column.primary",
  disks: "detail.disks",
  listKey: "changes.field.listKey",
  nodeName: "servers.filter.node",
  clusterName: "servers.filter.cluster",
  datacenterName: "servers.filter.datacenter",
  hostName: "servers.filter.host",
  orgName: "servers.filter.org",
  vdcName: "servers.filter.vdc",
  vappName: "changes.field.vappName",
};

const DETAIL = "details.";

/**
 * The label of a field as vm_events stores it. A source's own field ("details.ha") keeps the
 * source's name; a field this version does not know shows as stored.
 */
export function fieldLabel(field: string): string {
  const key = (LABELS as Record<string, MessageKey | undefined>)[field];
  if (key) return t(key);
  if (field.startsWith(DETAIL)) {
    return t("changes.field.sourceDetail", { name: field.slice(DETAIL.length) });
  }
  return field;
}

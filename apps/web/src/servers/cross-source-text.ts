import { t } from "../i18n/i18n.ts";

/** The other side of a cross-source link, as the detail query reads it. */
export interface LinkedVm {
  id: string;
  name: string;
  connection: { name: string };
}

/**
 * A detail view's cross-source fields: a Director VM has `backingVm`, a vCenter VM
 * `backedDirectorVm`, a Proxmox guest neither (`object &` lets such a guest be passed too).
 */
export type CrossSourceFields = object & {
  backingVm?: LinkedVm | null;
  backedDirectorVm?: LinkedVm | null;
};

/**
 * One line naming the same machine in the other source (docs/behaviour.md §10): "Runs on vCenter VM db01
 * (vc-prod)" for a Director VM, "Provided through Cloud Director as db-01" for a vCenter VM; null
 * when there is no link.
 */
export function crossSourceText(vm: CrossSourceFields): string | null {
  if (vm.backingVm) {
    return t("detail.runsOnVcenterVm", {
      name: vm.backingVm.name,
      connection: vm.backingVm.connection.name,
    });
  }
  if (vm.backedDirectorVm) {
    return t("detail.providedThroughDirector", { name: vm.backedDirectorVm.name });
  }
  return null;
}

// Reads one VM's details into the neutral shape (docs/behaviour.md §5): the full read and the
// light poll's reads of changed VMs share it, so both store the same record.
import type { NeutralVm } from "@hyperlens/shared";
import type { GuestInterfacesOutcome, VcenterClient } from "../client.ts";
import type { VcenterHostSummary } from "../parse/inventory-lists.ts";
import type { VcenterVmSummary } from "../parse/vm-list.ts";
import type { Placement } from "../placement.ts";
import { mapVcenterVm, type VcenterVmPlace } from "./map-vm.ts";

/** Where a VM runs, from the host the listing found it on. */
export function placeOf(
  vm: string,
  hostOf: Map<string, string>,
  hostsById: Map<string, VcenterHostSummary>,
  placement: Placement,
): VcenterVmPlace {
  const host = hostOf.get(vm) ?? null;
  const place = host === null ? undefined : placement.hostPlace.get(host);
  return {
    host,
    hostName: host === null ? null : (hostsById.get(host)?.name ?? null),
    clusterName: place?.cluster?.name ?? null,
    datacenterName: place?.datacenter?.name ?? null,
  };
}

/** Reads one VM: its info, and for a running one its guest's networking and identity. */
export async function readVcenterVm(
  client: VcenterClient,
  summary: VcenterVmSummary,
  place: VcenterVmPlace,
): Promise<NeutralVm> {
  const info = await client.vmInfo(summary.vm);
  // Guest data needs Tools, and Tools needs a running VM: a powered-off VM is not asked.
  const guest: GuestInterfacesOutcome | undefined =
    info.powerState === "POWERED_ON" ? await client.guestInterfaces(summary.vm) : undefined;
  // Only Tools that just answered are asked more: a 503 costs a round trip each.
  const identity = guest?.kind === "ok" ? await client.guestIdentity(summary.vm) : undefined;
  return mapVcenterVm(summary, info, guest, place, { serverName: client.serverName }, identity);
}

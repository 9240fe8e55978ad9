// Reads one guest's details into the neutral shape (docs/behaviour.md §3 step 4): the full read
// and the light poll's reads of changed guests share it, so both store the same record.
import type { NeutralVm } from "@hyperlens/shared";
import type { ProxmoxClient } from "../client.ts";
import type { ProxmoxGuestSummary } from "../parse/guest-list.ts";
import type { ProxmoxVersion } from "../parse/version.ts";
import { type GuestPlace, mapLxcGuest, mapQemuGuest } from "./map-guest.ts";

/** Reads one guest of a node's list; rejects when its config cannot be read. */
export type GuestReader = (
  place: GuestPlace,
  guest: ProxmoxGuestSummary,
  signal?: AbortSignal,
) => Promise<NeutralVm>;

/** `/lxc/{vmid}/interfaces` exists from Proxmox VE 8.1; unknown versions are asked. */
function offersLxcInterfaces(version: ProxmoxVersion | null): boolean {
  if (version?.major == null || version.minor == null) return true;
  return version.major > 8 || (version.major === 8 && version.minor >= 1);
}

/** A reader for one read of a cluster: it stops asking for container interfaces once refused. */
export function createGuestReader(
  client: ProxmoxClient,
  version: ProxmoxVersion | null,
): GuestReader {
  let lxcInterfacesOffered = offersLxcInterfaces(version);
  return async (place, guest, signal) => {
    signal?.throwIfAborted();
    const isRunning = guest.status === "running";
    if (guest.type === "qemu") {
      const config = await client.qemuConfig(place.node, guest.vmid);
      const agent =
        isRunning && config.isAgentEnabled
          ? await client.qemuAgentInterfaces(place.node, guest.vmid)
          : undefined;
      // Only an agent that just answered is asked more: a silent one costs a 3 s ping per call.
      const identity =
        agent?.kind === "ok" ? await client.qemuAgentIdentity(place.node, guest.vmid) : undefined;
      return mapQemuGuest(guest, config, agent, place, identity);
    }
    const config = await client.lxcConfig(place.node, guest.vmid);
    let live: Awaited<ReturnType<ProxmoxClient["lxcInterfaces"]>> | undefined;
    if (isRunning) {
      // Known not offered: said so without asking (docs/behaviour.md §10.11).
      live = lxcInterfacesOffered
        ? await client.lxcInterfaces(place.node, guest.vmid)
        : { kind: "not-offered" };
      if (live.kind === "not-offered") lxcInterfacesOffered = false;
    }
    return mapLxcGuest(guest, config, live, place);
  };
}

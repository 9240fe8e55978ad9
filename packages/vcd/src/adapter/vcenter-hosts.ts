// Director names the vCenter behind each admin VM by its own id (the vimServer UUID); what a
// Hyperlens vCenter connection knows is the vCenter's address. The provider-only list of
// registered vCenters ties the two (docs/behaviour.md §10 cross-source identity).
import { errorMessage, normalizeHost } from "@hyperlens/shared";
import type { VcdClient } from "../client.ts";

/**
 * Director's vCenter id → the vCenter's address as `normalizeHost` spells it. Empty for a tenant
 * session (tenants may not list vCenters) and when the list cannot be read: it is not inventory,
 * so a failure is logged as a warning and costs only the links, never the VM list.
 */
export async function readVcenterHosts(client: VcdClient): Promise<ReadonlyMap<string, string>> {
  const hosts = new Map<string, string>();
  if (!client.isProvider) return hosts;
  try {
    const listing = await client.listVirtualCenters();
    for (const vcenter of listing.items) {
      const host = vcenter.url === null ? null : normalizeHost(vcenter.url);
      if (host !== null) hosts.set(vcenter.id, host);
    }
    if (!listing.isComplete) warn(client, listing.reason ?? "the list was not read completely");
  } catch (error) {
    warn(client, errorMessage(error));
  }
  return hosts;
}

function warn(client: VcdClient, reason: string): void {
  client.logger.warn({
    msg: "Cloud Director's registered vCenters could not be read; its VMs keep their vCenter id and moref but are not linked to vCenter VMs this time",
    reason,
  });
}

// A provider's admin VM record names the VM's organization by href only (AdminVMRecord has `org`,
// no `orgName`); the organization list gives the names, so a provider-read VM is located in its
// org as a tenant-read one is (docs/behaviour.md §6.3).
import { errorMessage } from "@hyperlens/shared";
import type { VcdClient } from "../client.ts";

/**
 * Organization id (UUID) → name, for a provider session; empty for a tenant session, whose VMs
 * take the session's own org. The list is not inventory: when it cannot be read the failure is
 * logged as a warning and costs only the org names, never the VM list.
 */
export async function readOrgNames(client: VcdClient): Promise<ReadonlyMap<string, string>> {
  const names = new Map<string, string>();
  if (!client.isProvider) return names;
  try {
    const listing = await client.listOrgs();
    for (const org of listing.items) names.set(org.id, org.name);
    if (!listing.isComplete) warn(client, listing.reason ?? "the list was not read completely");
  } catch (error) {
    warn(client, errorMessage(error));
  }
  return names;
}

function warn(client: VcdClient, reason: string): void {
  client.logger.warn({
    msg: "Cloud Director's organizations could not be read; VMs read by the provider account are stored without their org this time",
    reason,
  });
}

// Where each host sits: VM.Info has no host, cluster or datacenter field, so places come from the
// list filters — hosts per cluster and per datacenter, clusters per datacenter.
import type {
  VcenterClusterSummary,
  VcenterDatacenterSummary,
  VcenterHostSummary,
} from "./parse/inventory-lists.ts";

/** The datacenter and cluster of one host. */
export interface HostPlace {
  datacenter: VcenterDatacenterSummary | null;
  /** null for a standalone host. */
  cluster: VcenterClusterSummary | null;
}

/** Every host's place, read in one go. */
export interface Placement {
  datacenters: VcenterDatacenterSummary[];
  clusters: VcenterClusterSummary[];
  /** Host moref → its place; hosts missing here were not in any datacenter listed. */
  hostPlace: Map<string, HostPlace>;
}

/** The list calls {@link readPlacement} needs, each with its filter. */
export interface PlacementDeps {
  datacenters(): Promise<VcenterDatacenterSummary[]>;
  clusters(filter: { datacenters?: string[] }): Promise<VcenterClusterSummary[]>;
  hosts(filter: { datacenters?: string[]; clusters?: string[] }): Promise<VcenterHostSummary[]>;
}

/**
 * Reads datacenters, then per datacenter its clusters and hosts, then per cluster its hosts.
 * Rejects when any of these calls fails: a place half-known would move VMs to "nowhere".
 */
export async function readPlacement(deps: PlacementDeps): Promise<Placement> {
  const datacenters = await deps.datacenters();
  const clusters: VcenterClusterSummary[] = [];
  const hostPlace = new Map<string, HostPlace>();
  await Promise.all(
    datacenters.map(async (dc) => {
      const [dcClusters, dcHosts] = await Promise.all([
        deps.clusters({ datacenters: [dc.datacenter] }),
        deps.hosts({ datacenters: [dc.datacenter] }),
      ]);
      clusters.push(...dcClusters);
      for (const host of dcHosts) {
        if (!hostPlace.has(host.host)) hostPlace.set(host.host, { datacenter: dc, cluster: null });
      }
      await Promise.all(
        dcClusters.map(async (cluster) => {
          for (const host of await deps.hosts({ clusters: [cluster.cluster] })) {
            hostPlace.set(host.host, { datacenter: dc, cluster });
          }
        }),
      );
    }),
  );
  return { datacenters, clusters, hostPlace };
}

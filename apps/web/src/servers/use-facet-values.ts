import { useEffect } from "react";
import { useQuery } from "urql";
import { graphql } from "../graphql/graphql.ts";
import { useSync } from "../sync/sync-context.tsx";
import type { FacetContext } from "./filter-facets.ts";

const FACET_VALUES = graphql(`
  query VmFacetValues {
    virtualMachineFacets {
      nodeNames clusterNames datacenterNames hostNames orgNames vdcNames guestOses tags
    }
  }
`);

/** The values the filter bar offers per text filter, from the guests the viewer sees. */
export function useFacetValues(): FacetContext["values"] {
  const [{ data }, reload] = useQuery({ query: FACET_VALUES });
  const { settledCount } = useSync();
  // A finished sync can bring new nodes, tags and hosts to offer.
  useEffect(() => {
    if (settledCount > 0) reload({ requestPolicy: "network-only" });
  }, [settledCount, reload]);
  const f = data?.virtualMachineFacets;
  if (!f) return {};
  return {
    node: f.nodeNames,
    cluster: f.clusterNames,
    datacenter: f.datacenterNames,
    host: f.hostNames,
    org: f.orgNames,
    vdc: f.vdcNames,
    os: f.guestOses,
    tag: f.tags,
  };
}

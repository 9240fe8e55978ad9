import { useQuery } from "urql";
import { graphql } from "../graphql/graphql.ts";
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
  const [{ data }] = useQuery({ query: FACET_VALUES });
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

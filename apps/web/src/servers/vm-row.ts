// The fields of one row of the Servers table; the page query, the CSV export and the detail
// drawer all read them.
import { graphql, type ResultOf } from "../graphql/graphql.ts";

export const VmRowFields = graphql(`
  fragment VmRowFields on VirtualMachine {
    id name source kind isTemplate state cpuCount memoryBytes diskTotalBytes lastSeenAt confirmation
    removedAt removedReason
    location { nodeName clusterName datacenterName hostName orgName vdcName vappName }
    ipAddresses { address }
    connection { id name }
  }
`);

/** One row of the Servers table. */
export type VmRow = ResultOf<typeof VmRowFields>;

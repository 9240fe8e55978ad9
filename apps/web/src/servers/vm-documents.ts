// GraphQL documents of the Servers page.

/** Rows per page. The API's cost limit (10,000) admits about 80 rows with these fields. */
export const PAGE_SIZE = 80;

const ROW_FIELDS = `id name source kind state cpuCount memoryBytes diskTotalBytes lastSeenAt confirmation
  location { nodeName clusterName datacenterName hostName orgName vdcName vappName }
  ipAddresses { address } connection { id name }`;

export const VM_PAGE = `query VmPage($first: Int!, $after: String, $filter: VirtualMachineFilter, $orderBy: [VirtualMachineOrder!]) {
  virtualMachines(first: $first, after: $after, filter: $filter, orderBy: $orderBy) {
    totalCount pageInfo { hasNextPage endCursor } edges { node { ${ROW_FIELDS} } }
  }
}`;

export const VM_DETAIL = `query VmDetail($id: ID!) {
  node(id: $id) {
    ... on VirtualMachine {
      ${ROW_FIELDS}
      guestOs isTemplate tags firstSeenAt changedAt removedAt removedReason details
      nics { key mac network model isConnected vlan }
      disks { key capacityBytes storage busType }
      allIps: ipAddresses(includeRejected: true) {
        address prefixLength origin interfaceName nicKey isAccepted rejectReason lastConfirmedAt
      }
      history(first: 50) { at type changes }
      ... on VcdVm { backingVm { id name connection { name } } }
      ... on VcenterVm { backedDirectorVm { id name connection { name } } }
    }
  }
}`;

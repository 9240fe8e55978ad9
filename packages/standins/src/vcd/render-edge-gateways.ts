import type { DirectorModel, VcdEdgeGateway } from "./model.ts";

/** `{name, id}` as CloudAPI references entities. */
interface EntityRef {
  name: string;
  id: string;
}

/**
 * One `EdgeGateway` of `GET /cloudapi/1.0.0/edgeGateways`, keyed as in
 * fixtures/vcd/cloudapi_edgeGateways. A VDC group's edge has `ownerRef` on the group
 * (`urn:vcloud:vdcGroup:…`) and `orgVdc: null`, as Director reports it since API 35.
 */
export function edgeGatewayJson(
  model: DirectorModel,
  edge: VcdEdgeGateway,
): Record<string, unknown> {
  const org = model.edgeOrg(edge);
  let ownerRef: EntityRef;
  let orgVdc: EntityRef | null = null;
  if (edge.owner.kind === "vdc") {
    const vdc = model.vdc(edge.owner.id);
    ownerRef = { name: vdc?.name ?? "", id: `urn:vcloud:vdc:${edge.owner.id}` };
    orgVdc = ownerRef;
  } else {
    const group = model.vdcGroup(edge.owner.id);
    ownerRef = { name: group?.name ?? "", id: `urn:vcloud:vdcGroup:${edge.owner.id}` };
  }
  return {
    id: `urn:vcloud:gateway:${edge.id}`,
    name: edge.name,
    description: edge.description,
    status: "REALIZED",
    edgeGatewayUplinks: [
      {
        uplinkId: `urn:vcloud:network:${edge.id.slice(0, 8)}-0000-4000-8000-${edge.id.slice(-12)}`,
        uplinkName: edge.uplinkName,
        subnets: {
          values: [
            {
              gateway: edge.gateway,
              prefixLength: edge.prefixLength,
              dnsSuffix: null,
              dnsServer1: "",
              dnsServer2: "",
              ipRanges: {
                values: [{ startAddress: edge.primaryIp, endAddress: edge.primaryIp }],
              },
              enabled: true,
              totalIpCount: 1,
              usedIpCount: 1,
              primaryIp: edge.primaryIp,
              autoAllocateIpRanges: false,
            },
          ],
        },
        dedicated: false,
        connected: true,
        vrfLiteBacked: false,
        usingIpSpace: false,
        backingType: "NSXT_TIER0",
      },
    ],
    distributedRoutingEnabled: null,
    orgVdcNetworkCount: edge.orgVdcNetworkCount,
    gatewayBacking: {
      backingId: edge.id,
      gatewayType: "NSXT_BACKED",
      networkProvider: {
        name: "nsxt01",
        id: "urn:vcloud:nsxtmanager:85aa2514-6a6f-4a32-8904-9695dc0f0298",
      },
    },
    edgeClusterConfig: {
      primaryEdgeCluster: {
        edgeClusterRef: {
          name: "edge-cluster-01",
          id: "urn:vcloud:edgeCluster:11111111-2222-3333-4444-555555555555",
        },
        backingId: "a1b2c3d4-0000-0000-0000-000000000000",
      },
      secondaryEdgeCluster: null,
    },
    orgRef: { name: org?.name ?? "", id: `urn:vcloud:org:${org?.id ?? ""}` },
    ownerRef,
    orgVdc,
    serviceNetworkDefinition: "192.168.255.225/27",
    distributedRouterUplinkNetworkDefinition: null,
    nonDistributedRoutingEnabled: false,
  };
}

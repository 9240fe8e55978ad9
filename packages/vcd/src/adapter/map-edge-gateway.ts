import type { NeutralEdgeGateway } from "@hyperlens/shared";
import type { VcdEdgeGatewayRecord } from "../parse/edge-gateway-records.ts";
import type { VcdEdgeGateway } from "../parse/edge-gateways.ts";

/** A CloudAPI edge gateway, owned by a VDC or a VDC group (docs/behaviour.md §10). */
export function mapEdgeGateway(g: VcdEdgeGateway): NeutralEdgeGateway {
  return {
    externalId: g.id,
    name: g.name,
    ...(g.orgName ? { orgName: g.orgName } : {}),
    ...(g.ownerType ? { ownerType: g.ownerType } : {}),
    ...(g.ownerName ? { ownerName: g.ownerName } : {}),
    details: {
      source: "VCD",
      status: g.status,
      description: g.description,
      gatewayType: g.gatewayType,
      networkProvider: g.networkProviderName,
      ownerId: g.ownerId,
      orgId: g.orgId,
      uplinks: g.uplinks.map((u) => ({
        name: u.name,
        primaryIps: u.primaryIps,
        subnets: u.subnets,
      })),
    },
  };
}

/** A legacy (query service) edge gateway: always VDC-owned, the owner known by href only. */
export function mapEdgeGatewayRecord(g: VcdEdgeGatewayRecord): NeutralEdgeGateway {
  return {
    externalId: g.id,
    name: g.name,
    ownerType: "VDC",
    details: {
      source: "VCD",
      legacy: true,
      href: g.href,
      vdcHref: g.vdcHref,
      status: g.gatewayStatus,
      haStatus: g.haStatus,
      externalNetworkCount: g.externalNetworkCount,
      orgNetworkCount: g.orgNetworkCount,
    },
  };
}

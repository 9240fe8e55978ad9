import { z } from "zod";
import { type CloudApiPaging, cloudApiPageSchema, pagingOf } from "./cloudapi-page.ts";
import { parseWith } from "./malformed.ts";

/** Who owns an edge gateway: a VDC, or a VDC group spanning VDCs (docs/behaviour.md §10). */
export type EdgeOwnerType = "VDC" | "VDC_GROUP";

/** One uplink of an edge gateway, with the addresses it holds. */
export interface VcdEdgeUplink {
  name: string | null;
  /** The primary IP of each subnet. */
  primaryIps: string[];
  /** "203.0.113.1/24" per subnet. */
  subnets: string[];
}

/** One edge gateway of `GET /cloudapi/1.0.0/edgeGateways`. */
export interface VcdEdgeGateway {
  /** `urn:vcloud:gateway:<uuid>`. */
  id: string;
  name: string;
  description: string | null;
  status: string | null;
  orgName: string | null;
  orgId: string | null;
  ownerType: EdgeOwnerType | null;
  ownerName: string | null;
  ownerId: string | null;
  /** NSXT_BACKED, NSXV_BACKED, … */
  gatewayType: string | null;
  networkProviderName: string | null;
  uplinks: VcdEdgeUplink[];
}

/** One page of `GET /cloudapi/1.0.0/edgeGateways`. */
export interface EdgeGatewayPage extends CloudApiPaging {
  gateways: VcdEdgeGateway[];
}

const text = z.string().nullish().catch(null);
const ref = z.looseObject({ name: text, id: text }).nullish().catch(null);

const subnet = z.looseObject({
  gateway: text,
  prefixLength: z.number().int().nullish().catch(null),
  primaryIp: text,
});

const uplink = z.looseObject({
  uplinkName: text,
  subnets: z
    .looseObject({ values: z.array(subnet).nullish().catch(null) })
    .nullish()
    .catch(null),
});

// TRAP: docs/behaviour.md §4 — a gateway without id or name fails the page; skipping it would remove it after a "complete" read.
const gateway = z.looseObject({
  id: z.string().min(1),
  name: z.string(),
  description: text,
  status: text,
  orgRef: ref,
  ownerRef: ref,
  orgVdc: ref,
  gatewayBacking: z.looseObject({ gatewayType: text, networkProvider: ref }).nullish().catch(null),
  edgeGatewayUplinks: z.array(uplink).nullish().catch(null),
});

const page = cloudApiPageSchema(gateway);

/** Parses one page of `GET /cloudapi/1.0.0/edgeGateways`. */
export function parseEdgeGatewayPage(body: unknown, call: string): EdgeGatewayPage {
  const p = parseWith(page, body, call, "edgeGateways");
  return {
    ...pagingOf(p),
    gateways: p.values.map((g): VcdEdgeGateway => {
      const owner = g.ownerRef?.id ? g.ownerRef : (g.orgVdc ?? null);
      return {
        id: g.id,
        name: g.name,
        description: g.description ? g.description : null,
        status: g.status ?? null,
        orgName: g.orgRef?.name ?? null,
        orgId: g.orgRef?.id ?? null,
        ownerType: ownerTypeOf(owner?.id ?? null),
        ownerName: owner?.name ?? null,
        ownerId: owner?.id ?? null,
        gatewayType: g.gatewayBacking?.gatewayType ?? null,
        networkProviderName: g.gatewayBacking?.networkProvider?.name ?? null,
        uplinks: (g.edgeGatewayUplinks ?? []).map((u) => {
          const subnets = u.subnets?.values ?? [];
          return {
            name: u.uplinkName ?? null,
            primaryIps: subnets.flatMap((s) => (s.primaryIp ? [s.primaryIp] : [])),
            subnets: subnets.flatMap((s) =>
              s.gateway
                ? [`${s.gateway}${s.prefixLength == null ? "" : `/${s.prefixLength}`}`]
                : [],
            ),
          };
        }),
      };
    }),
  };
}

/** VDC group owners have `urn:vcloud:vdcGroup:` ids, VDCs `urn:vcloud:vdc:`. */
export function ownerTypeOf(id: string | null): EdgeOwnerType | null {
  if (id === null) return null;
  if (/^urn:vcloud:vdcGroup:/i.test(id)) return "VDC_GROUP";
  if (/^urn:vcloud:vdc:/i.test(id)) return "VDC";
  return null;
}

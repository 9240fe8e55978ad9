import { listCloudApiPages } from "./list-cloudapi-pages.ts";
import type { EdgeGatewayRecordPage, VcdEdgeGatewayRecord } from "./parse/edge-gateway-records.ts";
import type { EdgeGatewayPage, VcdEdgeGateway } from "./parse/edge-gateways.ts";

/** Every CloudAPI edge gateway, and whether the read is known complete. */
export interface EdgeGatewayListing {
  gateways: VcdEdgeGateway[];
  resultTotal: number | null;
  pages: number;
  isComplete: boolean;
  reason?: string;
}

/** Reads every page of CloudAPI edge gateways (see {@link listCloudApiPages}); a failed page rejects. */
export async function listEdgeGatewayPages(
  readPage: (page: number) => Promise<EdgeGatewayPage & { hasNextPageLink: boolean }>,
): Promise<EdgeGatewayListing> {
  const { items, ...listing } = await listCloudApiPages(readPage, {
    path: "/cloudapi/1.0.0/edgeGateways",
    noun: "edge gateways",
    itemsOf: (page) => page.gateways,
    idOf: (g) => g.id,
  });
  return { gateways: items, ...listing };
}

/** Every legacy edge gateway record, counted against `total` like the VM query. */
export interface EdgeGatewayRecordListing {
  gateways: VcdEdgeGatewayRecord[];
  total: number | null;
  isComplete: boolean;
  reason?: string;
}

const MAX_LEGACY_PAGES = 10_000;

/** Reads the legacy `type=edgeGateway` query page by page until the records that arrived reach `total`. */
export async function listEdgeGatewayRecordPages(
  readPage: (page: number) => Promise<EdgeGatewayRecordPage>,
): Promise<EdgeGatewayRecordListing> {
  const byId = new Map<string, VcdEdgeGatewayRecord>();
  let received = 0;
  let total: number | null = null;
  for (let page = 1; page <= MAX_LEGACY_PAGES; page++) {
    const answer = await readPage(page);
    total = answer.total ?? total;
    if (answer.recordCount === 0) break;
    received += answer.recordCount;
    for (const g of answer.gateways) if (!byId.has(g.id)) byId.set(g.id, g);
    if (total !== null && received >= total) break;
  }
  const gateways = [...byId.values()];
  if (total !== null && gateways.length < total) {
    return {
      gateways,
      total,
      isComplete: false,
      reason: `Cloud Director reported ${total} edge gateways but ${gateways.length} arrived`,
    };
  }
  return { gateways, total, isComplete: true };
}

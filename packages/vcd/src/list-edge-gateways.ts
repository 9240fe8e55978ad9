import type { EdgeGatewayRecordPage, VcdEdgeGatewayRecord } from "./parse/edge-gateway-records.ts";
import type { EdgeGatewayPage, VcdEdgeGateway } from "./parse/edge-gateways.ts";
import { malformed } from "./parse/malformed.ts";

/** Every CloudAPI edge gateway, and whether the read is known complete. */
export interface EdgeGatewayListing {
  gateways: VcdEdgeGateway[];
  resultTotal: number | null;
  pages: number;
  isComplete: boolean;
  reason?: string;
}

const MAX_PAGES = 10_000;

/**
 * Reads every page: as many as `pageCount` says, or `resultTotal / pageSize` when an endpoint
 * omits the count (a known API bug), and on while a `Link: rel="nextPage"` header is sent.
 * An empty page ends the read. A failed page rejects.
 */
export async function listEdgeGatewayPages(
  readPage: (page: number) => Promise<EdgeGatewayPage & { hasNextPageLink: boolean }>,
): Promise<EdgeGatewayListing> {
  const byId = new Map<string, VcdEdgeGateway>();
  let resultTotal: number | null = null;
  let pages = 0;
  for (let page = 1; ; page++) {
    if (page > MAX_PAGES) {
      throw malformed("GET /cloudapi/1.0.0/edgeGateways", `no end after ${MAX_PAGES} pages`);
    }
    const answer = await readPage(page);
    pages = page;
    resultTotal = answer.resultTotal ?? resultTotal;
    if (answer.gateways.length === 0) break;
    for (const g of answer.gateways) if (!byId.has(g.id)) byId.set(g.id, g);
    const computed =
      answer.resultTotal !== null && answer.pageSize
        ? Math.ceil(answer.resultTotal / answer.pageSize)
        : null;
    const lastPage = answer.pageCount ?? computed ?? page;
    // TRAP: SPEC §4 — read every page the API reports; stopping at page 1 would "remove" the rest.
    if (page >= lastPage && !answer.hasNextPageLink) break;
  }
  const gateways = [...byId.values()];
  if (resultTotal !== null && gateways.length < resultTotal) {
    return {
      gateways,
      resultTotal,
      pages,
      isComplete: false,
      reason: `Cloud Director reported ${resultTotal} edge gateways but ${gateways.length} arrived in ${pages} pages`,
    };
  }
  return { gateways, resultTotal, pages, isComplete: true };
}

/** Every legacy edge gateway record, counted against `total` like the VM query. */
export interface EdgeGatewayRecordListing {
  gateways: VcdEdgeGatewayRecord[];
  total: number | null;
  isComplete: boolean;
  reason?: string;
}

/** Reads the legacy `type=edgeGateway` query page by page until the records that arrived reach `total`. */
export async function listEdgeGatewayRecordPages(
  readPage: (page: number) => Promise<EdgeGatewayRecordPage>,
): Promise<EdgeGatewayRecordListing> {
  const byId = new Map<string, VcdEdgeGatewayRecord>();
  let received = 0;
  let total: number | null = null;
  for (let page = 1; page <= MAX_PAGES; page++) {
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

import { z } from "zod";
import { lastUuid } from "../href.ts";
import { optionalAttr, repeated, toInt } from "./fields.ts";
import { malformed, parseWith } from "./malformed.ts";
import { parseXmlRoot } from "./xml.ts";

/** One `EdgeGatewayRecord` of the legacy query `type=edgeGateway` (pre-CloudAPI installs, NSX-V). */
export interface VcdEdgeGatewayRecord {
  /** `urn:vcloud:gateway:<uuid>` from the href, the same id CloudAPI uses. */
  id: string;
  href: string;
  name: string;
  vdcHref: string | null;
  gatewayStatus: string | null;
  haStatus: string | null;
  externalNetworkCount: number | null;
  orgNetworkCount: number | null;
}

/** One page of the legacy edge gateway query. */
export interface EdgeGatewayRecordPage {
  total: number | null;
  pageSize: number | null;
  recordCount: number;
  gateways: VcdEdgeGatewayRecord[];
}

const record = z.looseObject({
  "@href": z.string().min(1),
  "@name": z.string(),
  "@vdc": optionalAttr,
  "@gatewayStatus": optionalAttr,
  "@haStatus": optionalAttr,
  "@numberOfExtNetworks": optionalAttr,
  "@numberOfOrgNetworks": optionalAttr,
});

const page = z.looseObject({
  "@total": optionalAttr,
  "@pageSize": optionalAttr,
  EdgeGatewayRecord: repeated(record),
  AdminEdgeGatewayRecord: repeated(record),
});

/** Parses one page of `GET /api/query?type=edgeGateway&format=records` (or a VDC's edgeGateways). */
export function parseEdgeGatewayRecords(text: string, call: string): EdgeGatewayRecordPage {
  const root = parseWith(page, parseXmlRoot(text, "QueryResultRecords", call), call, "records");
  const records = [...root.EdgeGatewayRecord, ...root.AdminEdgeGatewayRecord];
  return {
    total: toInt(root["@total"]),
    pageSize: toInt(root["@pageSize"]),
    recordCount: records.length,
    gateways: records.map((r) => {
      const uuid = lastUuid(r["@href"]);
      if (uuid === null)
        throw malformed(call, `edge gateway "${r["@name"]}" has no id in its href`);
      return {
        id: `urn:vcloud:gateway:${uuid}`,
        href: r["@href"],
        name: r["@name"],
        vdcHref: r["@vdc"] ?? null,
        gatewayStatus: r["@gatewayStatus"] ?? null,
        haStatus: r["@haStatus"] ?? null,
        externalNetworkCount: toInt(r["@numberOfExtNetworks"]),
        orgNetworkCount: toInt(r["@numberOfOrgNetworks"]),
      };
    }),
  };
}

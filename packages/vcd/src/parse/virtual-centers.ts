import { z } from "zod";
import { lastUuid } from "../href.ts";
import { type CloudApiPaging, cloudApiPageSchema, pagingOf } from "./cloudapi-page.ts";
import { parseWith } from "./malformed.ts";

/** One vCenter registered in Director (`GET /cloudapi/1.0.0/virtualCenters`, provider only). */
export interface VcdVirtualCenter {
  /**
   * Director's id of the vCenter: the UUID of `vcId` (`urn:vcloud:vimserver:<uuid>`), lower-case,
   * the same UUID as in an admin VM record's `vc` href.
   */
  id: string;
  name: string | null;
  /** As registered, e.g. `https://vc01.example.com`, sometimes with `:443` or a path. */
  url: string | null;
  isEnabled: boolean | null;
  isConnected: boolean | null;
  /** e.g. `8.0.2`. */
  version: string | null;
  /** The vCenter's own instance UUID. */
  instanceUuid: string | null;
}

/** One page of `GET /cloudapi/1.0.0/virtualCenters`. */
export interface VirtualCenterPage extends CloudApiPaging {
  virtualCenters: VcdVirtualCenter[];
}

const text = z.string().nullish().catch(null);
const flag = z.boolean().nullish().catch(null);

// Registered vCenters are not inventory: one Hyperlens cannot read is left out, not fatal.
const virtualCenter = z
  .looseObject({
    vcId: z.string().min(1),
    name: text,
    url: text,
    isEnabled: flag,
    isConnected: flag,
    vcVersion: text,
    uuid: text,
  })
  .nullable()
  .catch(null);

const page = cloudApiPageSchema(virtualCenter);

/** Parses one page of `GET /cloudapi/1.0.0/virtualCenters`, field by field. */
export function parseVirtualCenterPage(body: unknown, call: string): VirtualCenterPage {
  const p = parseWith(page, body, call, "virtualCenters");
  return {
    ...pagingOf(p),
    virtualCenters: p.values.flatMap((v): VcdVirtualCenter[] =>
      v
        ? [
            {
              id: lastUuid(v.vcId) ?? v.vcId.toLowerCase(),
              name: v.name ?? null,
              url: v.url ? v.url : null,
              isEnabled: v.isEnabled ?? null,
              isConnected: v.isConnected ?? null,
              version: v.vcVersion ?? null,
              instanceUuid: v.uuid ?? null,
            },
          ]
        : [],
    ),
  };
}

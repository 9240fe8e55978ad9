import { z } from "zod";
import { lastUuid } from "../href.ts";
import { type CloudApiPaging, cloudApiPageSchema, pagingOf } from "./cloudapi-page.ts";
import { parseWith } from "./malformed.ts";

/** One organization (`GET /cloudapi/1.0.0/orgs`): its id and the name Director's UI shows. */
export interface VcdOrg {
  /** The UUID of `id` (`urn:vcloud:org:<uuid>`), lower-case: the same as in a VM record's `org` href. */
  id: string;
  name: string;
}

/** One page of `GET /cloudapi/1.0.0/orgs`. */
export interface OrgPage extends CloudApiPaging {
  orgs: VcdOrg[];
}

// Organizations are not inventory: one Hyperlens cannot read is left out, not fatal.
const org = z
  .looseObject({ id: z.string().min(1), name: z.string().min(1) })
  .nullable()
  .catch(null);

const page = cloudApiPageSchema(org);

/** Parses one page of `GET /cloudapi/1.0.0/orgs`, org by org. */
export function parseOrgPage(body: unknown, call: string): OrgPage {
  const p = parseWith(page, body, call, "orgs");
  return {
    ...pagingOf(p),
    orgs: p.values.flatMap((o): VcdOrg[] =>
      o ? [{ id: lastUuid(o.id) ?? o.id.toLowerCase(), name: o.name }] : [],
    ),
  };
}

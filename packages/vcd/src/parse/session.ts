import { z } from "zod";
import { parseWith } from "./malformed.ts";

/** What the CloudAPI login answers, as far as Hyperlens uses it. */
export interface VcdSessionInfo {
  /** `urn:vcloud:session:<uuid>`; null when the body lacks it (logout then uses `/sessions/current`). */
  id: string | null;
  userName: string | null;
  orgName: string | null;
  /** "site@org". */
  location: string | null;
  roles: string[];
}

const ref = z
  .looseObject({ name: z.string().optional().catch(undefined) })
  .optional()
  .catch(undefined);

const body = z.looseObject({
  id: z
    .string()
    .regex(/^urn:vcloud:session:[0-9A-Za-z-]+$/)
    .optional()
    .catch(undefined),
  user: ref,
  org: ref,
  location: z.string().optional().catch(undefined),
  roles: z.array(z.string()).optional().catch(undefined),
});

/** Parses the JSON body of `POST /cloudapi/1.0.0/sessions[/provider]`. */
export function parseSession(value: unknown, call: string): VcdSessionInfo {
  const s = parseWith(body, value, call, "session");
  return {
    id: s.id ?? null,
    userName: s.user?.name ?? null,
    orgName: s.org?.name ?? null,
    location: s.location ?? null,
    roles: s.roles ?? [],
  };
}

import { z } from "zod";
import { optionalString } from "./fields.ts";
import { parseWith } from "./malformed.ts";

/**
 * Reads the token of `POST /api/session`: the body is a bare JSON string (`"b3c9…"`), not an
 * object; the deprecated `/rest` login's `{"value": "…"}` is accepted too.
 */
export function parseSessionToken(value: unknown, call: string): string {
  const token = parseWith(
    z.union([z.string(), z.object({ value: z.string() }).transform((v) => v.value)]),
    value,
    call,
    "token",
  );
  const trimmed = token.trim();
  // A token is one header value: a line break or nothing at all cannot be sent back.
  return parseWith(z.string().regex(/^[\x21-\x7e]+$/), trimmed, call, "token");
}

/** What `GET /api/session` tells about the logged-in user. */
export interface VcenterSessionInfo {
  /** `VSPHERE.LOCAL\inventory`, as vCenter writes it. */
  user: string | null;
  createdTime: string | null;
}

/** Parses `GET /api/session`. */
export function parseSessionInfo(value: unknown, call: string): VcenterSessionInfo {
  const info = parseWith(
    z.object({ user: optionalString, created_time: optionalString }),
    value,
    call,
    "session",
  );
  return { user: info.user ?? null, createdTime: info.created_time ?? null };
}

import { z } from "zod";
import { textOf } from "./xml.ts";

/** An optional attribute: a string when present; anything else (an element by that name) reads as missing. */
export const optionalAttr = z.string().optional().catch(undefined);

/** An optional element's text, with `xsi:nil` and empty elements read as missing. */
export const optionalText = z.preprocess(textOf, z.string().optional());

/** Director writes numbers as strings ("2048"); not a whole number → null, not a failed answer. */
export function toInt(value: string | undefined): number | null {
  if (value === undefined || !/^\s*-?\d+\s*$/.test(value)) return null;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : null;
}

/** Director booleans are "true"/"false" strings; anything else is unknown (null). */
export function toBool(value: string | undefined): boolean | null {
  const v = value?.trim().toLowerCase();
  return v === "true" ? true : v === "false" ? false : null;
}

/** Array of repeated elements: the XML reader already makes them arrays; missing → []. */
export function repeated<T extends z.ZodType>(item: T) {
  return z.array(item).optional().default([]);
}

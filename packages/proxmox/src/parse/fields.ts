import { z } from "zod";

/** An integer that older Proxmox versions send as a string ("106"); strings that are not integers fail. */
export const looseInt = z.union([
  z.number().int(),
  z
    .string()
    .regex(/^-?\d+$/)
    .transform(Number),
]);

/** A number that may arrive as a string ("0.5", "4096"). */
export const looseNumber = z.union([
  z.number(),
  z
    .string()
    .regex(/^-?\d+(\.\d+)?$/)
    .transform(Number),
]);

/** Proxmox booleans: 0/1 integers, "0"/"1" strings, "" (absent), or real booleans. */
export const looseBool = z
  .union([z.boolean(), z.number(), z.string(), z.null()])
  .transform((value) => value === true || value === 1 || value === "1");

/** A field that may be missing, null, or of an unexpected type: read as `null` instead of failing the whole answer. */
export function optional<T extends z.ZodType>(schema: T) {
  return schema.nullish().catch(null);
}

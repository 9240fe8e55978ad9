import { HyperError } from "@hyperlens/hyper-http";
import type { z } from "zod";

/**
 * A `malformed` HyperError for a vCenter answer we could not use, naming the call and what was
 * wrong so an administrator (or a bug report) can tell which endpoint misbehaved.
 */
export function malformed(call: string, detail: string): HyperError {
  return new HyperError(
    `The vCenter server's answer to ${call} has an unexpected shape (${detail})`,
    {
      errorClass: "malformed",
      source: "vCenter",
      path: call,
    },
  );
}

/** Parses `value` with `schema`, or throws {@link malformed} naming the first wrong field. */
export function parseWith<T extends z.ZodType>(
  schema: T,
  value: unknown,
  call: string,
  root: string,
): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = [root, ...(issue?.path ?? []).map(String)].join(".");
  throw malformed(call, `${where}: ${issue?.message ?? "invalid"}`);
}

import { HyperError } from "@hyperlens/hyper-http";
import { z } from "zod";

const envelopeSchema = z.object({ data: z.unknown() });

/**
 * Parses a Proxmox answer `{"data": …}` with `schema` for the payload. A payload that does not
 * fit becomes a `malformed` HyperError naming the call and the first wrong field.
 */
export function parseData<T extends z.ZodType>(
  schema: T,
  body: unknown,
  call: string,
): z.output<T> {
  const envelope = envelopeSchema.safeParse(body);
  if (!envelope.success) throw malformed(call, "the answer has no data field");
  const result = schema.safeParse(envelope.data.data);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const where = ["data", ...(issue?.path ?? []).map(String)].join(".");
  throw malformed(call, `${where}: ${issue?.message ?? "invalid"}`);
}

function malformed(call: string, detail: string): HyperError {
  return new HyperError(
    `The Proxmox server's answer to ${call} has an unexpected shape (${detail})`,
    {
      errorClass: "malformed",
      source: "Proxmox",
      path: call,
    },
  );
}

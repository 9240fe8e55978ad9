import { type AnswerSchema, answerParsers } from "@hyperlens/hyper-http";
import { z } from "zod";

const envelopeSchema = z.object({ data: z.unknown() });
const { malformed, parseWith } = answerParsers("Proxmox");

/**
 * Parses a Proxmox answer `{"data": …}` with `schema` for the payload. A payload that does not
 * fit becomes a `malformed` HyperError naming the call and the first wrong field.
 */
export function parseData<T>(schema: AnswerSchema<T>, body: unknown, call: string): T {
  const envelope = envelopeSchema.safeParse(body);
  if (!envelope.success) throw malformed(call, "the answer has no data field");
  return parseWith(schema, envelope.data.data, call, "data");
}

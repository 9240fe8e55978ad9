// What a client put on the wire, for a test that checks headers and bodies against a stand-in
// (whose request log keeps methods, paths and statuses only).
import { Agent, type Dispatcher } from "undici";

/** One request as the client sent it: header names lower-case, the body as text. */
export interface SentRequest {
  method: string;
  path: string;
  headers: Record<string, string>;
  body: string | undefined;
}

function headerRecord(headers: Dispatcher.DispatchOptions["headers"]): Record<string, string> {
  const record: Record<string, string> = {};
  if (!headers) return record;
  const entries: [string, unknown][] = Array.isArray(headers)
    ? (headers as unknown[]).flatMap((value, i, all) =>
        i % 2 === 0 ? [[String(value), all[i + 1]] as [string, unknown]] : [],
      )
    : Object.entries(headers as Record<string, unknown>);
  for (const [name, value] of entries)
    if (value !== undefined) record[name.toLowerCase()] = String(value);
  return record;
}

/**
 * A dispatcher trusting `caPem` (a stand-in's) that records every request it sends, to hand to a
 * client as its `dispatcher`. Close it after the client.
 */
export function recordingDispatcher(caPem: string): {
  dispatcher: Dispatcher;
  sent: SentRequest[];
} {
  const sent: SentRequest[] = [];
  const agent = new Agent({ connect: { ca: caPem } });
  const dispatcher = agent.compose((dispatch) => (options, handler) => {
    sent.push({
      method: options.method,
      path: options.path,
      headers: headerRecord(options.headers),
      body: typeof options.body === "string" ? options.body : options.body?.toString(),
    });
    return dispatch(options, handler);
  });
  return { dispatcher, sent };
}

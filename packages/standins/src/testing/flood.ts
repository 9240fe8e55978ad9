import type { ServerResponse } from "node:http";
import type { FaultAction } from "./faults.ts";
import type { RequestLogEntry } from "./request-log.ts";

type Flood = Extract<FaultAction, { kind: "flood" }>;

const CHUNK_BYTES = 64 * 1024;

/** Resolves when the socket wants more, or when it has gone (then false). */
function drained(res: ServerResponse): Promise<boolean> {
  return new Promise((resolve) => {
    const onDrain = () => done(true);
    const onClose = () => done(false);
    const done = (more: boolean) => {
      res.off("drain", onDrain);
      res.off("close", onClose);
      resolve(more);
    };
    res.once("drain", onDrain);
    res.once("close", onClose);
  });
}

/**
 * Streams a gigantic body as fast as the client reads it, never holding it whole, and stops when
 * the client goes away. `entry.sentBytes` tells a test how much left before the client gave up.
 */
export async function sendFlood(
  res: ServerResponse,
  flood: Flood,
  entry: RequestLogEntry,
  signal: AbortSignal,
): Promise<void> {
  const headers: Record<string, string | number> = { "Content-Type": flood.contentType };
  if (flood.declareLength) headers["Content-Length"] = flood.bytes;
  res.writeHead(flood.status, headers);
  const unit = Buffer.from(flood.unit);
  const chunk = Buffer.concat(Array(Math.ceil(CHUNK_BYTES / unit.length)).fill(unit));
  const suffix = Buffer.from(flood.suffix);
  let remaining = flood.bytes;
  const write = async (piece: Buffer): Promise<boolean> => {
    if (res.destroyed || signal.aborted) return false;
    const more = res.write(piece);
    remaining -= piece.length;
    entry.sentBytes = (entry.sentBytes ?? 0) + piece.length;
    return more || (await drained(res));
  };
  if (!(await write(Buffer.from(flood.prefix)))) return;
  while (remaining > suffix.length) {
    const size = Math.min(chunk.length, remaining - suffix.length);
    if (!(await write(chunk.subarray(0, size)))) return;
  }
  if (res.destroyed) return;
  const last = suffix.subarray(0, Math.max(0, remaining));
  entry.sentBytes = (entry.sentBytes ?? 0) + last.length;
  res.end(last);
}

// Requests Node's HTTP parser refuses before any handler runs (headers or URL too large, not HTTP,
// too slow). Node would answer them with an empty body; clients get GraphQL-shaped JSON instead,
// like every other refusal.
import type { Server } from "node:http";
import type { Duplex } from "node:stream";
import { ERROR_CODES, refusalBody } from "../errors.ts";

const REFUSALS: Record<string, { status: number; reason: string; message: string }> = {
  HPE_HEADER_OVERFLOW: {
    status: 431,
    reason: "Request Header Fields Too Large",
    message:
      "The request's address and headers are larger than the server accepts; send the query in a POST body.",
  },
  ERR_HTTP_REQUEST_TIMEOUT: {
    status: 408,
    reason: "Request Timeout",
    message: "The request took too long to arrive.",
  },
};

const NOT_HTTP = { status: 400, reason: "Bad Request", message: "The request is not valid HTTP." };

function answer(socket: Duplex, code: string | undefined) {
  const { status, reason, message } = (code && REFUSALS[code]) || NOT_HTTP;
  const body = JSON.stringify(refusalBody(message, ERROR_CODES.BAD_REQUEST));
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
  );
}

/** Answers parser-level refusals of `server` with a JSON body and a code. */
export function answerClientErrors(server: Server): void {
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    // A reset or half-closed socket cannot be answered.
    if (error.code === "ECONNRESET" || !socket.writable) {
      socket.destroy();
      return;
    }
    answer(socket, error.code);
  });
}

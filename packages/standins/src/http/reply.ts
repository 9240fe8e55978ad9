import type { IncomingHttpHeaders } from "node:http";

/** A request as a stand-in handler sees it: already read, already routed past the faults. */
export interface StandinRequest {
  method: string;
  /** URL path without the query string, still percent-encoded. */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  /** Request body as text (form or JSON); empty for GET. */
  body: string;
}

/** What a handler (or a fault) answers: status line, headers and body, byte for byte. */
export interface StandinReply {
  status: number;
  /** HTTP reason phrase; real servers put error text here (Proxmox before 2025 only here). */
  reason?: string;
  /** Header values; a list sends the header once per value (CloudAPI repeats `Link`). */
  headers?: Record<string, string | string[]>;
  body?: string;
  /** Route template the request matched (e.g. `GET /nodes/{node}/qemu`), for the stats. */
  route?: string;
}

/** Answers one request of a stand-in server. */
export type StandinHandler = (request: StandinRequest) => StandinReply | Promise<StandinReply>;

/** One request that reached a stand-in, in arrival order. */
export interface RequestLogEntry {
  method: string;
  /** Path without the query string. */
  path: string;
  /** Raw query string without `?` (empty when none). */
  query: string;
  /** Status sent; 0 while unanswered, and for hung or reset requests. */
  status: number;
  /** Arrival time, milliseconds since the epoch (from the server's clock). */
  at: number;
  /** Route template the handler matched, when it matched one. */
  route?: string;
  /** Name of the fault switch that answered instead of the handler, if any. */
  fault?: string;
  /** Body bytes handed to the socket so far, for streamed (flood) answers. */
  sentBytes?: number;
}

/**
 * One concrete path for each route template the logged requests of `method` used (in order of
 * first use): what a test needs to try a fault on every kind of call, without every VM's copy.
 */
export function pathsByRoute(requests: readonly RequestLogEntry[], method = "GET"): string[] {
  const byRoute = new Map<string, string>();
  for (const r of requests) {
    const route = r.route ?? r.path;
    if (r.method === method && !byRoute.has(route)) byRoute.set(route, r.path);
  }
  return [...byRoute.values()];
}

/** Counters of a stand-in server since start or the last {@link StandinStats.reset}. */
export class StandinStats {
  /** Requests received. */
  total = 0;
  /** Requests per HTTP method. */
  byMethod: Record<string, number> = {};
  /** Requests per `METHOD /path`. */
  byPath: Record<string, number> = {};
  /** Requests per route template (`GET /nodes/{node}/qemu`), counted when answered. */
  byRoute: Record<string, number> = {};
  /** Requests received and not yet answered or closed. */
  inFlight = 0;
  /** Most requests in flight at once. */
  maxInFlight = 0;

  /** Count an arriving request. */
  begin(method: string, path: string): void {
    this.total += 1;
    this.byMethod[method] = (this.byMethod[method] ?? 0) + 1;
    const key = `${method} ${path}`;
    this.byPath[key] = (this.byPath[key] ?? 0) + 1;
    this.inFlight += 1;
    this.maxInFlight = Math.max(this.maxInFlight, this.inFlight);
  }

  /** Count a request as answered (or abandoned). */
  end(route: string | undefined): void {
    this.inFlight -= 1;
    if (route) this.byRoute[route] = (this.byRoute[route] ?? 0) + 1;
  }

  /** Zero the counters; requests still in flight stay counted as in flight. */
  reset(): void {
    this.total = 0;
    this.byMethod = {};
    this.byPath = {};
    this.byRoute = {};
    this.maxInFlight = this.inFlight;
  }
}

// pveproxy's worker pool, per node, for the Proxmox stand-in of tests and benchmarks: a request for
// a node's resources (`/nodes/{node}/…`) is served by that node's own pveproxy, which runs 3 worker
// processes by default; a fourth request for the same node waits until one is free, while the
// other nodes serve theirs side by side. Requests that name no node are served by the node the
// client connected to (its own pool here). Here, not in the demo's stand-in: it needs the shared
// semaphore, which the shipped stand-ins do not depend on.
import { createSemaphore, type Semaphore } from "@hyperlens/shared";
import type { StandinInterceptor } from "../http/server.ts";

/** pveproxy's default number of worker processes. */
export const PVEPROXY_WORKERS = 3;

/** Requests for one node, counted from arrival (queued ones too) until answered. */
export interface NodeLoad {
  inFlight: number;
  /** Most requests for the node in flight at once since start or the last reset. */
  maxInFlight: number;
  /** Most of the node's workers busy at once (at most its workers; the rest queued). */
  maxBusy: number;
}

/** The node a stand-in request path names (`/api2/json/nodes/{node}/…`), if any. */
export function requestNode(path: string): string | undefined {
  const match = /^\/api2\/json\/nodes\/([^/]+)(?:\/|$)/.exec(path);
  return match ? decodeURIComponent(match[1] as string) : undefined;
}

/** The worker pools of a cluster's nodes, and how many requests each node had at once. */
export class NodeWorkers {
  /** Requests per node (only those that name a node), by node name. */
  readonly byNode = new Map<string, NodeLoad>();
  private readonly pools = new Map<string, Semaphore>();
  private readonly entryPool: Semaphore;

  constructor(readonly workersPerNode = PVEPROXY_WORKERS) {
    this.entryPool = createSemaphore(workersPerNode);
  }

  /** Most requests in flight for one node at once, by node (a plain object, for stats). */
  maxInFlightByNode(): Record<string, number> {
    return Object.fromEntries([...this.byNode].map(([node, load]) => [node, load.maxInFlight]));
  }

  /** Forgets the peaks (the requests in flight now become them). */
  resetPeaks(): void {
    for (const [node, load] of this.byNode) {
      load.maxInFlight = load.inFlight;
      load.maxBusy = this.pools.get(node)?.inUse ?? 0;
    }
  }

  /**
   * The interceptor that serves each request on a worker of its node, holding it through `inner`
   * (the instruments, which add the latency and faults, then the handler).
   */
  interceptor(inner: StandinInterceptor): StandinInterceptor {
    return async (exchange, next) => {
      const node = requestNode(exchange.request.path);
      const load = node === undefined ? undefined : this.loadOf(node);
      if (load) {
        load.inFlight += 1;
        load.maxInFlight = Math.max(load.maxInFlight, load.inFlight);
      }
      const pool = node === undefined ? this.entryPool : this.poolOf(node);
      const release = await pool.acquire();
      if (load) load.maxBusy = Math.max(load.maxBusy, pool.inUse);
      try {
        return await inner(exchange, next);
      } finally {
        release();
        if (load) load.inFlight -= 1;
      }
    };
  }

  private loadOf(node: string): NodeLoad {
    let load = this.byNode.get(node);
    if (!load) {
      load = { inFlight: 0, maxInFlight: 0, maxBusy: 0 };
      this.byNode.set(node, load);
    }
    return load;
  }

  private poolOf(node: string): Semaphore {
    let pool = this.pools.get(node);
    if (!pool) {
      pool = createSemaphore(this.workersPerNode);
      this.pools.set(node, pool);
    }
    return pool;
  }
}

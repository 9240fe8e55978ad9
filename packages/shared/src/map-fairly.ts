/** How {@link mapFairly} shares its calls out among the items' groups. */
export interface FairShare<T> {
  /** The group an item belongs to (a Proxmox node). */
  groupOf: (item: T) => string;
  /** Calls in flight for one group at once. */
  perGroup: number;
  /** Calls in flight in all at once. */
  limit: number;
}

/** One group's items still to start, and its calls in flight. */
interface Lane {
  indexes: number[];
  next: number;
  inFlight: number;
}

/**
 * Maps items with at most `limit` calls of `fn` in flight, and at most `perGroup` of them for one
 * group; a free slot goes to the groups in turn (round-robin), each starting its items in input
 * order. A big group therefore never holds the slots the small ones could use, and the pipeline
 * stays full up to min(perGroup × groups, limit). Answers in input order; rejects with the first
 * failure and starts nothing after it.
 */
export function mapFairly<T, R>(
  items: readonly T[],
  share: FairShare<T>,
  fn: (item: T) => Promise<R>,
): Promise<R[]> {
  if (!(share.perGroup >= 1) || !(share.limit >= 1)) {
    throw new RangeError(`limits must be at least 1, got ${share.perGroup} and ${share.limit}`);
  }
  const lanes: Lane[] = [];
  const laneOf = new Map<string, Lane>();
  items.forEach((item, index) => {
    const group = share.groupOf(item);
    let lane = laneOf.get(group);
    if (!lane) {
      lane = { indexes: [], next: 0, inFlight: 0 };
      laneOf.set(group, lane);
      lanes.push(lane);
    }
    lane.indexes.push(index);
  });

  return new Promise((resolve, reject) => {
    const results = new Array<R>(items.length);
    let turn = 0;
    let inFlight = 0;
    let done = 0;
    let hasFailed = false;

    /** The next lane, from the one whose turn it is, with an item to start and room for it. */
    const nextLane = (): Lane | undefined => {
      for (let tried = 0; tried < lanes.length; tried++) {
        const lane = lanes[turn] as Lane;
        turn = (turn + 1) % lanes.length;
        if (lane.next < lane.indexes.length && lane.inFlight < share.perGroup) return lane;
      }
      return undefined;
    };

    const start = (lane: Lane) => {
      const index = lane.indexes[lane.next] as number;
      lane.next += 1;
      lane.inFlight += 1;
      inFlight += 1;
      const settled = () => {
        lane.inFlight -= 1;
        inFlight -= 1;
        done += 1;
      };
      let call: Promise<R>;
      try {
        call = fn(items[index] as T);
      } catch (error) {
        call = Promise.reject(error);
      }
      call.then(
        (result) => {
          results[index] = result;
          settled();
          fill();
        },
        (error: unknown) => {
          settled();
          hasFailed = true;
          reject(error);
        },
      );
    };

    const fill = () => {
      while (!hasFailed && inFlight < share.limit) {
        const lane = nextLane();
        if (!lane) break;
        start(lane);
      }
      if (!hasFailed && done === items.length) resolve(results);
    };

    fill();
  });
}

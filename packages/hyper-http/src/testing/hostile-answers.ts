// What every connector's hostile-answer tests share (issue 8): a client with a small body cap
// against a stand-in, what a hostile answer must become, and the sweep of every route of a read.
// Test-only: connectors import it whole, as `hostile`, from
// @hyperlens/hyper-http/testing.
import { afterAll, beforeAll, expect } from "vitest";
import type { HyperClientOptions } from "../client.ts";

/** The body cap of a client under a hostile-answer test: small, so a gigantic body is cut early. */
export const CAP = 256 * 1024;

/** A body far past {@link CAP}, streamed: the client must stop reading at the cap. */
export const GIGANTIC = 16 * 1024 * 1024;

/** HTTP options of a client under a hostile-answer test: the stand-in, one attempt, the small cap. */
export function testHttp(
  connectionId: string,
  standin: { url: string; caPem: string },
): Pick<
  HyperClientOptions,
  "connectionId" | "baseUrl" | "caPem" | "allowLoopbackTargets" | "retry" | "maxBodyBytes"
> {
  return {
    connectionId,
    baseUrl: standin.url,
    caPem: standin.caPem,
    // Stand-ins listen on loopback, which the door refuses unless told otherwise.
    allowLoopbackTargets: true,
    retry: { attempts: 1 },
    maxBodyBytes: CAP,
  };
}

/**
 * For a file of hostile-answer tests: before them, the stand-in `start` makes, the client `connect`
 * makes over it (given {@link testHttp} options named `connectionId`) and one clean read;
 * after them, the client and the stand-in closed. Read the fields inside tests only.
 */
export function testBed<
  S extends { url: string; caPem: string; close(): Promise<void> },
  C extends { close(): Promise<void> },
  Snapshot,
>(setUp: {
  connectionId: string;
  start(): Promise<S>;
  connect(http: ReturnType<typeof testHttp>): C;
  read(client: C): Promise<Snapshot>;
}) {
  let current: { standin: S; client?: C; clean?: Snapshot } | undefined;
  const now = () => {
    const { standin, client, clean } = current ?? {};
    if (!standin || !client || clean === undefined)
      throw new Error("the hostile-answer test bed exists only while the file's tests run");
    return { standin, client, clean };
  };
  beforeAll(async () => {
    current = { standin: await setUp.start() };
    current.client = setUp.connect(testHttp(setUp.connectionId, current.standin));
    current.clean = await setUp.read(current.client);
  });
  afterAll(async () => {
    await current?.client?.close();
    await current?.standin.close();
  });
  return {
    get standin() {
      return now().standin;
    },
    get client() {
      return now().client;
    },
    /** What a read with no fault gives. */
    get clean() {
      return now().clean;
    },
  };
}

/**
 * The hostile answer named `reply` became a HyperError of `source`: transient for a reverse
 * proxy's 502 page (it may pass), malformed for anything else. A gigantic body is refused at the
 * cap, and the server never got to send the rest: `sentBytes` is what its request log says it sent.
 */
export function expectClassified(
  error: unknown,
  reply: string,
  source: string,
  sentBytes: number | undefined,
): void {
  expect(error).toMatchObject({
    name: "HyperError",
    errorClass: reply === "a reverse proxy's 502 page" ? "transient" : "malformed",
    source,
  });
  if (reply === "a gigantic body") {
    expect((error as Error).message).toContain("larger than 256 KiB");
    // Cut off at the cap: the rest of the body was never read (or sent).
    expect(sentBytes ?? 0).toBeLessThan(GIGANTIC / 4);
  }
}

/** How a call ended: its value, or what it threw. */
export type Outcome<T> = { value: T } | { error: unknown };

/** A stand-in as these tests drive it: its fault switches and its request log. */
interface Standin<Faults, Request> {
  faults: Faults;
  requests: Request[];
}

/** A hostile reply (the stand-ins' `hostileReplies`): its name, and how it is installed on a path. */
interface Reply<Faults> {
  name: string;
  install(faults: Faults, path: string): unknown;
}

/**
 * Installs `reply` on `path` as the stand-in's only fault, empties its request log, then makes
 * `call` and says how it ended.
 */
export async function answerWith<Faults extends { clear(): void }, Request, T>(
  standin: Standin<Faults, Request>,
  reply: Reply<Faults>,
  path: string,
  call: () => Promise<T>,
): Promise<Outcome<T>> {
  standin.faults.clear();
  reply.install(standin.faults, path);
  standin.requests.length = 0;
  try {
    return { value: await call() };
  } catch (error) {
    return { error };
  }
}

/**
 * Every hostile answer on every route a read calls. One clean read records the concrete paths the
 * stand-in was asked for (`pathsOf`: one per route template), which must include `mustCall`; then
 * each path gets each of its `replies` in turn, alone, and `check` judges the read that follows.
 */
export async function sweep<Faults extends { clear(): void }, Request, Snapshot>(options: {
  standin: Standin<Faults, Request>;
  read(): Promise<Snapshot>;
  pathsOf(requests: Request[]): string[];
  mustCall: unknown[];
  replies(path: string): Reply<Faults>[];
  check(outcome: Outcome<Snapshot>, where: string, path: string): void;
}): Promise<void> {
  const { standin } = options;
  standin.faults.clear();
  standin.requests.length = 0;
  await options.read();
  const paths = options.pathsOf(standin.requests);
  expect(paths).toEqual(expect.arrayContaining(options.mustCall));
  for (const path of paths) {
    for (const reply of options.replies(path)) {
      // A concrete path as a pattern matches only itself.
      const outcome = await answerWith(standin, reply, path, options.read);
      options.check(outcome, `${reply.name} on ${path}`, path);
    }
  }
}

import type { StandinReply } from "../http/reply.ts";

/** What a fault switch does to a matching request instead of (or on top of) the normal answer. */
export type FaultAction =
  /** Answer with this status (and reason phrase, headers, body) instead of the handler. */
  | {
      kind: "status";
      status: number;
      reason?: string;
      headers?: Record<string, string>;
      body?: string;
    }
  /** Wait this long, then answer normally. */
  | { kind: "delay"; ms: number }
  /** Never answer: the client's own timeout must fire. */
  | { kind: "hang" }
  /** Answer normally but cut the body in half, so it is not valid JSON/XML. */
  | { kind: "truncate" }
  /** Answer with an HTML error page, as a reverse proxy in front of the server would. */
  | { kind: "html"; status: number }
  /** Reset the TCP connection without answering. */
  | { kind: "reset" }
  /** Answer normally, with the body passed through `edit` first (a field of the wrong type, one missing). */
  | { kind: "rewrite"; edit: (body: string) => string }
  /**
   * Answer with a body of `bytes` bytes, streamed as the client reads it and never held whole:
   * `prefix`, then `unit` repeated, then `suffix`. The request log counts what was sent.
   */
  | {
      kind: "flood";
      status: number;
      bytes: number;
      contentType: string;
      /** Send Content-Length up front (a client may refuse before reading); chunked otherwise. */
      declareLength: boolean;
      prefix: string;
      unit: string;
      suffix: string;
    };

const HTML_ERROR_PAGE =
  "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n";

/** The answer a `status` or `html` switch gives instead of the handler's; undefined for the others. */
export function faultReply(action: FaultAction): StandinReply | undefined {
  if (action.kind === "status") {
    const { status, reason, headers, body = "" } = action;
    return { status, reason, headers, body };
  }
  if (action.kind === "html") {
    return {
      status: action.status,
      headers: { "Content-Type": "text/html" },
      body: HTML_ERROR_PAGE,
    };
  }
  return undefined;
}

/**
 * The handler's answer as a `truncate` or `rewrite` switch changes it (cut in half, or through
 * `edit`); unchanged for any other action or none.
 */
export function faultEditedReply(
  action: FaultAction | undefined,
  reply: StandinReply,
): StandinReply {
  if (action?.kind === "truncate" && reply.body) {
    return { ...reply, body: reply.body.slice(0, Math.floor(reply.body.length / 2)) };
  }
  if (action?.kind === "rewrite") return { ...reply, body: action.edit(reply.body ?? "") };
  return reply;
}

/** Options of {@link FaultSwitches.reply}: the answer byte for byte. */
export interface RawReply {
  /** Default 200. */
  status?: number;
  reason?: string;
  /** Sent as Content-Type when given (e.g. `text/html` for a proxy's error page). */
  contentType?: string;
  body?: string;
}

/** Options of {@link FaultSwitches.flood}. */
export interface FloodOptions {
  /** Total body size in bytes. */
  bytes: number;
  /** Default 200. */
  status?: number;
  /** Default `application/json`. */
  contentType?: string;
  /** Default false (chunked, so the size is only found out by reading). */
  declareLength?: boolean;
  /** Start of the body, e.g. `{"data":[` (default empty). */
  prefix?: string;
  /** What is repeated to fill the body (default a space). */
  unit?: string;
  /** End of the body (default empty). */
  suffix?: string;
}

/** Which requests a switch applies to, and which of them (1-based counting of matches). */
export interface FaultMatch {
  /** HTTP method; any method when omitted. */
  method?: string;
  /**
   * A pattern for the path (without query): `*` matches within one segment, `**` across
   * segments, `{name}` is one segment; or a RegExp tested against the full path.
   * A string pattern not starting with the server's API base gets it prepended.
   */
  path: string | RegExp;
  /** Fire first on the Nth matching request (default 1). */
  nth?: number;
  /** Fire this many times (default: once if `nth` is given, otherwise forever). */
  times?: number;
}

/** One installed fault switch. */
export interface FaultRule extends FaultMatch {
  action: FaultAction;
}

/** A handle on an installed switch: how often it matched and fired; remove it when done. */
export interface FaultHandle {
  readonly name: string;
  /** Matching requests seen so far (fired or not). */
  readonly matched: number;
  /** Requests this switch answered (or delayed). */
  readonly fired: number;
  remove(): void;
}

/** Options shared by the shortcut methods. */
export type FaultOptions = Omit<FaultMatch, "path">;

interface InstalledRule {
  name: string;
  method: string | undefined;
  pattern: RegExp;
  first: number;
  last: number;
  action: FaultAction;
  matched: number;
  fired: number;
}

/**
 * Switches that make chosen requests fail, for tests of retries, timeouts, error classes and
 * the removal guard. Mutable while the server runs; rules are checked in the order added and
 * the first one that fires wins.
 */
export class FaultSwitches {
  /** Latency added to every request before it is answered, in milliseconds. */
  latencyMs = 0;
  #rules: InstalledRule[] = [];
  #counter = 0;

  /** @param basePath prefix that string patterns are relative to (e.g. `/api2/json`). */
  constructor(readonly basePath = "") {}

  /** Install a switch. */
  add(rule: FaultRule): FaultHandle {
    const first = rule.nth ?? 1;
    const times = rule.times ?? (rule.nth === undefined ? Number.POSITIVE_INFINITY : 1);
    this.#counter += 1;
    const installed: InstalledRule = {
      name: `${rule.action.kind}#${this.#counter}`,
      method: rule.method?.toUpperCase(),
      pattern: this.#compile(rule.path),
      first,
      last: first + times - 1,
      action: rule.action,
      matched: 0,
      fired: 0,
    };
    this.#rules.push(installed);
    return {
      name: installed.name,
      get matched() {
        return installed.matched;
      },
      get fired() {
        return installed.fired;
      },
      remove: () => {
        this.#rules = this.#rules.filter((candidate) => candidate !== installed);
      },
    };
  }

  /** Answer matching requests with `status` (e.g. 500, 503, or 595 with reason "No route to host"). */
  fail(
    path: string | RegExp,
    status: number,
    options: FaultOptions & {
      reason?: string;
      headers?: Record<string, string>;
      body?: string;
    } = {},
  ): FaultHandle {
    const { reason, headers, body, ...match } = options;
    return this.add({ ...match, path, action: { kind: "status", status, reason, headers, body } });
  }

  /** Delay matching requests by `ms` on top of the global latency. */
  delay(path: string | RegExp, ms: number, options: FaultOptions = {}): FaultHandle {
    return this.add({ ...options, path, action: { kind: "delay", ms } });
  }

  /** Never answer matching requests. */
  hang(path: string | RegExp, options: FaultOptions = {}): FaultHandle {
    return this.add({ ...options, path, action: { kind: "hang" } });
  }

  /** Answer matching requests with a truncated body. */
  truncate(path: string | RegExp, options: FaultOptions = {}): FaultHandle {
    return this.add({ ...options, path, action: { kind: "truncate" } });
  }

  /** Answer matching requests with an HTML error page (default status 502). */
  html(path: string | RegExp, options: FaultOptions & { status?: number } = {}): FaultHandle {
    const { status = 502, ...match } = options;
    return this.add({ ...match, path, action: { kind: "html", status } });
  }

  /** Answer matching requests with exactly this status, content type and body (an empty 200, a wrong shape). */
  reply(path: string | RegExp, reply: RawReply, options: FaultOptions = {}): FaultHandle {
    const headers =
      reply.contentType === undefined ? undefined : { "Content-Type": reply.contentType };
    return this.add({
      ...options,
      path,
      action: {
        kind: "status",
        status: reply.status ?? 200,
        reason: reply.reason,
        headers,
        body: reply.body ?? "",
      },
    });
  }

  /** Answer matching requests normally, but with the body passed through `edit`. */
  rewrite(
    path: string | RegExp,
    edit: (body: string) => string,
    options: FaultOptions = {},
  ): FaultHandle {
    return this.add({ ...options, path, action: { kind: "rewrite", edit } });
  }

  /** Answer matching requests with a gigantic body, streamed (see {@link FloodOptions}). */
  flood(path: string | RegExp, flood: FloodOptions, options: FaultOptions = {}): FaultHandle {
    return this.add({
      ...options,
      path,
      action: {
        kind: "flood",
        status: flood.status ?? 200,
        bytes: flood.bytes,
        contentType: flood.contentType ?? "application/json",
        declareLength: flood.declareLength ?? false,
        prefix: flood.prefix ?? "",
        unit: flood.unit || " ",
        suffix: flood.suffix ?? "",
      },
    });
  }

  /** Reset the connection of matching requests. */
  reset(path: string | RegExp, options: FaultOptions = {}): FaultHandle {
    return this.add({ ...options, path, action: { kind: "reset" } });
  }

  /** Remove every switch and the global latency. */
  clear(): void {
    this.#rules = [];
    this.latencyMs = 0;
  }

  /**
   * Count the request against every matching switch and return the one that fires, if any.
   * Called once per request by the instruments (and the in-process vCenter).
   */
  take(method: string, path: string): { name: string; action: FaultAction } | undefined {
    let firing: InstalledRule | undefined;
    for (const rule of this.#rules) {
      if (rule.method !== undefined && rule.method !== method) continue;
      if (!rule.pattern.test(path)) continue;
      rule.matched += 1;
      if (!firing && rule.matched >= rule.first && rule.matched <= rule.last) firing = rule;
    }
    if (!firing) return undefined;
    firing.fired += 1;
    return { name: firing.name, action: firing.action };
  }

  #compile(path: string | RegExp): RegExp {
    if (path instanceof RegExp) return path;
    const full = path.startsWith(this.basePath) ? path : `${this.basePath}${path}`;
    const source = full
      .split(/(\*\*|\*|\{[^/}]+\})/)
      .map((part) => {
        if (part === "**") return ".*";
        if (part === "*" || /^\{[^/}]+\}$/.test(part)) return "[^/]+";
        return part.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
      })
      .join("");
    return new RegExp(`^${source}$`);
  }
}

// What every answer to a hostile request must look like: no 5xx, well-formed GraphQL JSON whose
// errors carry a listed code, nothing that betrays the server's insides, and the refusals the
// HTTP layer promises (CSRF, body cap) where they apply.
import { ERROR_CODES } from "../../errors.ts";
import { REQUEST_LIMITS } from "../../http/limits.ts";
import { type FuzzRequest, SIMPLE_ENCODINGS } from "./mutation-requests.ts";
import type { WireRequest } from "./wire.ts";

/** An answer as received. */
export interface WireResponse {
  status: number;
  contentType: string;
  text: string;
}

/**
 * The codes a client may see for hostile input: every listed code but INTERNAL_SERVER_ERROR —
 * input, however bad, must not reach an unexpected error.
 */
const ALLOWED_CODES = new Set<string>(
  Object.values(ERROR_CODES).filter((code) => code !== ERROR_CODES.INTERNAL_SERVER_ERROR),
);

/** Text that only appears when an internal error, a stack or a file path leaks out. */
const LEAKS: [string, RegExp][] = [
  ["a stack frame", /\bat [^\n"]*:\d+:\d+/],
  ["a file path", /\/work\/|node_modules|\.ts:\d|\.js:\d|file:\/\//],
  ["a database error", /prisma|invalid byte sequence|violates .*constraint|PGlite|postgres/i],
  [
    "a JavaScript error",
    /TypeError|RangeError|ReferenceError|Maximum call stack|Cannot read propert|is not a function|undefined is not/,
  ],
  ["a masked error", /Unexpected error/],
];

function parse(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function errorProblems(errors: unknown): string[] {
  if (!Array.isArray(errors) || errors.length === 0) return ["`errors` is not a non-empty list"];
  return errors.flatMap((error, i) => {
    const e = error as { message?: unknown; extensions?: { code?: unknown } } | null;
    const problems: string[] = [];
    if (typeof e?.message !== "string" || e.message === "")
      problems.push(`errors[${i}] has no message`);
    const code = e?.extensions?.code;
    if (typeof code !== "string") problems.push(`errors[${i}] has no extensions.code`);
    else if (!ALLOWED_CODES.has(code))
      problems.push(`errors[${i}] has code ${code}, not one of the listed codes`);
    return problems;
  });
}

/** Everything wrong with one answer (empty when it is fine). */
export function responseProblems(
  request: FuzzRequest,
  wire: WireRequest,
  response: WireResponse,
): string[] {
  const problems: string[] = [];
  if (response.status >= 500) problems.push(`HTTP ${response.status}`);
  if (!/^application\/(graphql-response\+)?json\b/.test(response.contentType))
    problems.push(`content type ${JSON.stringify(response.contentType)} is not JSON`);
  for (const [what, pattern] of LEAKS) {
    if (pattern.test(response.text)) problems.push(`the body shows ${what}`);
  }
  const body = parse(response.text) as Record<string, unknown> | undefined;
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    problems.push("the body is not a JSON object");
    return problems;
  }
  const extra = Object.keys(body).filter((k) => !["data", "errors", "extensions"].includes(k));
  if (extra.length) problems.push(`unexpected top-level keys ${extra.join(", ")}`);
  if (!("data" in body) && !("errors" in body)) problems.push("neither data nor errors");
  if ("errors" in body) problems.push(...errorProblems(body.errors));
  if ("data" in body && typeof body.data !== "object")
    problems.push("`data` is neither an object nor null");

  if (wire.method === "POST" && wire.bodyBytes > REQUEST_LIMITS.maxBodyBytes) {
    if (response.status !== 413)
      problems.push(`a ${wire.bodyBytes}-byte body was not refused with 413`);
  } else if (
    SIMPLE_ENCODINGS.has(request.encoding) &&
    (response.status !== 403 || "data" in body)
  ) {
    // TRAP: docs/api.md — a request a browser may send cross-site without a preflight must not execute.
    problems.push(`a ${request.encoding} request without a CSRF header was not refused with 403`);
  }
  return problems;
}

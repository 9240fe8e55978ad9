// Prisma's debug module keeps the arguments of its last 100 debug calls whether or not DEBUG is
// set (it attaches them to error reports), and both driver adapters hand it every statement with
// its parameters. A sync writes its guests as statements with megabytes of JSON parameters each,
// so the parameters of its last 100 statements stayed reachable: about 40 MB of strings at the
// peak of a 5,000-guest sync's write, and after it until 100 later calls pushed them out.
import { Debug as clientDebug } from "@prisma/client/runtime/client";
import { Debug as adapterDebug } from "@prisma/driver-adapter-utils";

/** `MAX_ARGS_HISTORY` of @prisma/debug: how many calls its history keeps. */
export const DEBUG_HISTORY_LENGTH = 100;
/** A finished statement whose parameters hold more text than this is forgotten at once. */
export const LARGE_PARAMETERS_CHARS = 64 * 1024;

const NAMESPACE = "hyperlens:forget";

// Two copies keep a history: the adapters' @prisma/debug and the one bundled in the client runtime.
const histories = [adapterDebug, clientDebug].map((debug) => ({ debug, forget: debug(NAMESPACE) }));

/** Pushes every entry out of Prisma's debug histories (left alone while DEBUG shows them). */
export function forgetDebugHistory(): void {
  for (const { debug, forget } of histories) {
    if (debug.enabled(NAMESPACE)) continue;
    for (let i = 0; i < DEBUG_HISTORY_LENGTH; i++) forget("-");
  }
}

function parameterChars(args: unknown): number {
  if (!Array.isArray(args)) return 0;
  let chars = 0;
  for (const arg of args) if (typeof arg === "string") chars += arg.length;
  return chars;
}

type StatementMethod = (this: unknown, statement: { args?: unknown }) => Promise<unknown>;
const wrappers = new WeakSet<StatementMethod>();

/**
 * Makes a connected driver adapter (and its transactions, which share its statement methods)
 * forget a statement with large parameters once it has finished.
 */
export function forgetLargeStatements(adapter: object): void {
  for (const method of ["queryRaw", "executeRaw"]) {
    let proto: object | null = Object.getPrototypeOf(adapter);
    while (proto && !Object.hasOwn(proto, method)) proto = Object.getPrototypeOf(proto);
    if (!proto) continue;
    const owner = proto as Record<string, StatementMethod>;
    const original = owner[method];
    if (!original || wrappers.has(original)) continue;
    const wrapper: StatementMethod = async function (this: unknown, statement) {
      try {
        return await original.call(this, statement);
      } finally {
        if (parameterChars(statement.args) > LARGE_PARAMETERS_CHARS) forgetDebugHistory();
      }
    };
    wrappers.add(wrapper);
    owner[method] = wrapper;
  }
}

// Subscriptions over HTTP (server-sent events on /graphql) are checked again while they stay open,
// as WebSocket subscriptions are (websocket.ts): a stream whose token is revoked, whose session
// ended or whose user was disabled ends with one error event, then `complete`; one that may go on
// carries on with the viewer just read, so a changed connection scope applies to what follows.
import type { ExecutionResult, GraphQLError } from "graphql";
import { isAsyncIterable, type Plugin } from "graphql-yoga";
import type { Credentials } from "../auth/authenticate.ts";
import type { Viewer } from "../auth/viewer.ts";
import type { AppServices } from "../context.ts";
import { ForbiddenError, NotAuthenticatedError } from "../errors.ts";
import {
  credentialsFromHeaders,
  type RecheckVerdict,
  recheckCredentials,
} from "./credential-recheck.ts";

const REFUSALS: Record<Exclude<RecheckVerdict["kind"], "allowed">, GraphQLError> = {
  unauthenticated: new NotAuthenticatedError(
    "The session or token is no longer valid; sign in again.",
  ),
  forbidden: new ForbiddenError("You may no longer see inventory events."),
};

type Step = IteratorResult<ExecutionResult, undefined>;

/**
 * `source`, ended early with the result `refusal` returns once it returns one. `refusal` is asked
 * every `everyMs` and whenever `watch` calls its `checkNow` (a credentials-changed signal), never
 * twice at once; the source is returned (unsubscribed) when the stream ends.
 */
export function endWhenRefused(
  source: AsyncIterable<ExecutionResult>,
  refusal: () => Promise<ExecutionResult | undefined>,
  everyMs: number,
  watch?: (checkNow: () => void) => () => void,
): AsyncIterableIterator<ExecutionResult> {
  const iterator = source[Symbol.asyncIterator]();
  let isEnded = false;
  let timer: NodeJS.Timeout | undefined;
  let stopWatching: (() => void) | undefined;
  const refused = new Promise<ExecutionResult>((resolve) => {
    const check = serialCheck(async () => {
      if (isEnded) return false;
      const final = await refusal();
      if (final) resolve(final);
      return final !== undefined;
    });
    timer = setInterval(check, everyMs);
    timer.unref();
    stopWatching = watch?.(check);
  });
  const end = async (): Promise<Step> => {
    isEnded = true;
    clearInterval(timer);
    stopWatching?.();
    await iterator.return?.();
    return { value: undefined, done: true };
  };
  return {
    [Symbol.asyncIterator]() {
      return this;
    },
    async next(): Promise<Step> {
      if (isEnded) return { value: undefined, done: true };
      const winner = await Promise.race([
        iterator.next().then((step) => ({ step, final: undefined })),
        refused.then((final) => ({ step: undefined, final })),
      ]);
      if (winner.final) {
        // The pending read of the source ends when it is returned; the stream ends after `final`.
        void end().catch(() => {});
        return { value: winner.final, done: false };
      }
      if (winner.step?.done) return end();
      return winner.step ?? end();
    },
    return: end,
  };
}

/**
 * `check` as a function to call any time: never two runs at once, and a call during a run starts
 * one more run after it (the change that prompted the call may have come after that run's read).
 * Stops once `check` answers true (the stream is refused).
 */
export function serialCheck(check: () => Promise<boolean>): () => void {
  let isChecking = false;
  let isWanted = false;
  let isDone = false;
  const run = async () => {
    if (isDone) return;
    if (isChecking) {
      isWanted = true;
      return;
    }
    isChecking = true;
    try {
      do {
        isWanted = false;
        isDone = await check();
      } while (isWanted && !isDone);
    } finally {
      isChecking = false;
    }
  };
  return () => void run();
}

/**
 * Ends SSE subscriptions whose credentials stop authenticating: checked every `recheckMs`, and at
 * once when the user's credentials are announced changed (auth/credential-changes.ts).
 */
export function useSseSubscriptionRecheck(
  services: Pick<AppServices, "prisma" | "sessionPolicy" | "credentialChanges">,
  recheckMs: number,
): Plugin {
  const refusalFor =
    (credentials: Credentials, context: { viewer?: Viewer | null }) => async () => {
      const verdict = await recheckCredentials(services, credentials);
      if (verdict.kind !== "allowed") return { errors: [REFUSALS[verdict.kind]] };
      // TRAP: docs/behaviour.md §7.17 — the stream's filters read this viewer at each event.
      context.viewer = verdict.viewer;
      return undefined;
    };
  return {
    onSubscribe: ({ args }) => {
      // Only Yoga's HTTP requests carry a Request; a WebSocket's subscriptions are re-checked per
      // socket in websocket.ts, which closes it with 4401/4403.
      const request = (args.contextValue as { request?: Request }).request;
      if (!request) return;
      const context = args.contextValue as { viewer?: Viewer | null };
      const refusal = refusalFor(credentialsFromHeaders(request.headers), context);
      const userId = context.viewer?.userId;
      const watch =
        userId === undefined
          ? undefined
          : (checkNow: () => void) => services.credentialChanges.watch(userId, checkNow);
      return {
        onSubscribeResult: ({ result, setResult }) => {
          // TRAP: docs/behaviour.md §7 — without this a revoked token's event stream never ends.
          if (isAsyncIterable<ExecutionResult>(result))
            setResult(endWhenRefused(result, refusal, recheckMs, watch));
        },
      };
    },
  };
}

// GraphQL over WebSocket (graphql-ws) on the same path as HTTP. The upgrade is not covered by
// CSRF prevention, so the Origin is checked here, and credentials are checked at connect.

import { randomUUID } from "node:crypto";
import type { IncomingMessage, Server } from "node:http";
import type { ExecutionArgs } from "graphql";
import type { ServerOptions } from "graphql-ws";
import { useServer } from "graphql-ws/use/ws";
import { type WebSocket, WebSocketServer } from "ws";
import { authenticate } from "../auth/authenticate.ts";
import type { Viewer } from "../auth/viewer.ts";
import type { AppServices, Context } from "../context.ts";
import { recheckCredentials } from "./credential-recheck.ts";
import { isPublicHost, MISDIRECTED_STATUS } from "./public-url.ts";
import { serialCheck } from "./sse-subscription-recheck.ts";
import { countRejectedCredentials, type createGraphqlHandler } from "./yoga.ts";

const MAX_MESSAGE_BYTES = 64 * 1024;

/** True when a browser's Origin is our own host or one the operator allowed. */
export function isAllowedOrigin(req: IncomingMessage, allowedOrigins: readonly string[]): boolean {
  const origin = req.headers.origin;
  // Non-browser clients send no Origin; they still need credentials.
  if (!origin) return true;
  if (allowedOrigins.includes(origin)) return true;
  try {
    return new URL(origin).host === req.headers.host;
  } catch {
    return false;
  }
}

type SocketExtra = {
  request: IncomingMessage;
  socket: WebSocket;
  viewer?: Viewer | null;
  recheck?: NodeJS.Timeout;
  stopWatching?: () => void;
};

// graphql-ws close codes.
const CLOSE_UNAUTHORIZED = 4401;
const CLOSE_FORBIDDEN = 4403;

type Run = NonNullable<ServerOptions["execute"]>;
type EnvelopedArgs = ExecutionArgs & { rootValue: { execute: Run; subscribe: Run } };

/** Attaches graphql-ws to the HTTP server. */
export function attachWebSocket(
  server: Server,
  yoga: ReturnType<typeof createGraphqlHandler>,
  services: AppServices,
  options: {
    allowedOrigins: readonly string[];
    recheckMs: number;
    /** When set, an upgrade naming another Host is refused (public-url.ts). */
    publicUrl: string | undefined;
    /** The client's address behind a trusted proxy (see client-address.ts). */
    clientAddressOf: (request: IncomingMessage) => string | undefined;
  },
) {
  const { allowedOrigins } = options;
  const wss = new WebSocketServer({
    server,
    path: yoga.graphqlEndpoint,
    maxPayload: MAX_MESSAGE_BYTES,
    verifyClient: (
      { req }: { req: IncomingMessage },
      accept: (isAccepted: boolean, status?: number, message?: string) => void,
    ) => {
      // TRAP: docs/operations.md "Production mode" — a DNS-rebinding page's Origin matches its Host.
      if (options.publicUrl && !isPublicHost(req.headers.host, options.publicUrl))
        return accept(false, MISDIRECTED_STATUS, "Misdirected Request");
      accept(isAllowedOrigin(req, allowedOrigins));
    },
  });
  const disposable = useServer<Record<string, unknown> | undefined, SocketExtra>(
    {
      execute: (args) => (args as EnvelopedArgs).rootValue.execute(args),
      subscribe: (args) => (args as EnvelopedArgs).rootValue.subscribe(args),
      onConnect: async (ctx) => {
        const authorization = ctx.connectionParams?.authorization;
        const credentials = {
          authorization: typeof authorization === "string" ? authorization : null,
          cookie: ctx.extra.request.headers.cookie ?? null,
        };
        ctx.extra.viewer = await authenticate(services.prisma, credentials, services.sessionPolicy);
        if (!ctx.extra.viewer) countRejectedCredentials(services, credentials);
        // TRAP: docs/behaviour.md §7 — a socket outlives its check: a revoked token or an expired session must
        // not keep receiving inventory events, so the credentials are checked again while it is open.
        if (ctx.extra.viewer) {
          const check = serialCheck(async () => {
            const verdict = await recheckCredentials(services, credentials);
            if (verdict.kind === "unauthenticated")
              ctx.extra.socket.close(
                CLOSE_UNAUTHORIZED,
                "Unauthorized: the session or token is no longer valid",
              );
            else if (verdict.kind === "forbidden")
              ctx.extra.socket.close(CLOSE_FORBIDDEN, "Forbidden");
            else ctx.extra.viewer = verdict.viewer;
            return verdict.kind !== "allowed";
          });
          ctx.extra.recheck = setInterval(check, options.recheckMs);
          ctx.extra.recheck.unref();
          // A credentials-changed signal (sign-out everywhere, disabling, ...) checks at once.
          ctx.extra.stopWatching = services.credentialChanges.watch(ctx.extra.viewer.userId, check);
        }
        return true;
      },
      onClose: (ctx) => {
        clearInterval(ctx.extra.recheck);
        ctx.extra.stopWatching?.();
      },
      onSubscribe: async (ctx, _id, params) => {
        const { schema, execute, subscribe, parse, validate } = yoga.getEnveloped({
          ...ctx,
          req: ctx.extra.request,
          params,
        });
        const contextValue: Context = {
          ...services,
          // TRAP: docs/behaviour.md §7.17 — read at each event, so a re-check's fresh scope applies.
          get viewer() {
            return ctx.extra.viewer ?? null;
          },
          clientAddress: options.clientAddressOf(ctx.extra.request),
          userAgent: ctx.extra.request.headers["user-agent"],
          responseCookies: [],
          requestId: randomUUID(),
        };
        const args = {
          schema,
          operationName: params.operationName,
          document: parse(params.query),
          variableValues: params.variables,
          contextValue,
          rootValue: { execute, subscribe },
        };
        const errors = validate(args.schema, args.document);
        return errors.length ? errors : args;
      },
    },
    wss,
  );
  return {
    close: async () => {
      await disposable.dispose();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}

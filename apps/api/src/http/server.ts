// The HTTP server: GraphQL (HTTP, SSE, WebSocket) on /graphql (a browser opening it as a page is
// sent to GraphiQL, a page of the web app), health and readiness probes,
// Prometheus metrics, single sign-on redirects, the inventory exports (Ansible, Prometheus), and a
// request-body cap applied before anything reads the body.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Config } from "../config.ts";
import type { AppServices } from "../context.ts";
import { ERROR_CODES, type ErrorCode, refusalBody } from "../errors.ts";
import { BUILD_INFO } from "../version.ts";
import { answerBackup, BACKUP_PATH } from "./backup-route.ts";
import { clientAddressResolver } from "./client-address.ts";
import { answerClientErrors } from "./client-errors.ts";
import { GRAPHIQL_PATH, isGraphiqlPageRequest } from "./graphiql-route.ts";
import { createInventoryRoutes } from "./inventory-routes.ts";
import { REQUEST_LIMITS } from "./limits.ts";
import { createOidcRoutes } from "./oidc-routes.ts";
import { isPublicHost, MISDIRECTED_STATUS, misdirectedRequestBody } from "./public-url.ts";
import { createStaticHandler } from "./static-files.ts";
import { attachWebSocket } from "./websocket.ts";
import { createGraphqlHandler } from "./yoga.ts";

/**
 * How long an idle keep-alive connection stays open. Node's 5 s default drops a connection the
 * moment the event loop has been busy that long (the embedded database runs on it: the end of a
 * big sync), racing a request the client already sent on it, which then fails with ECONNRESET.
 * Longer than the proxy's idle time (deploy/Caddyfile: 60 s), so the proxy always closes first.
 */
export const KEEP_ALIVE_TIMEOUT_MS = 65_000;

function sendJson(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { "content-type": "application/json", "cache-control": "no-store" });
  res.end(JSON.stringify(body));
}

/** Refuses bodies over the cap, and bodies of unknown length, before they are read. */
function bodyProblem(
  req: IncomingMessage,
): { status: number; message: string; code: ErrorCode } | undefined {
  if (req.method !== "POST") return undefined;
  const length = req.headers["content-length"];
  if (length === undefined)
    return {
      status: 411,
      message: "A Content-Length header is required.",
      code: ERROR_CODES.BAD_REQUEST,
    };
  if (Number(length) > REQUEST_LIMITS.maxBodyBytes) {
    return {
      status: 413,
      message: `The request body is larger than ${REQUEST_LIMITS.maxBodyBytes} bytes.`,
      // Yoga's own code for the same refusal.
      code: ERROR_CODES.REQUEST_ENTITY_TOO_LARGE,
    };
  }
  return undefined;
}

/** A started server and how to stop it. */
export interface RunningServer {
  url: string;
  close(): Promise<void>;
}

/** Creates the HTTP server for the given services and starts listening. */
export async function startServer(services: AppServices, config: Config): Promise<RunningServer> {
  const yoga = createGraphqlHandler(services, config);
  const serveWebApp = createStaticHandler();
  const clientAddressOf = clientAddressResolver(config.trustedProxies);
  const answerOidc = createOidcRoutes(services, config, clientAddressOf);
  const answerInventory = createInventoryRoutes(services, config);
  const server = createServer(async (req, res) => {
    const path = (req.url ?? "/").split("?")[0];
    if (path === "/healthz") return sendJson(res, 200, { status: "ok", ...BUILD_INFO });
    if (path === "/metrics" && req.method === "GET") {
      const { registry } = services.metrics;
      res.writeHead(200, { "content-type": registry.contentType, "cache-control": "no-store" });
      return res.end(await registry.metrics());
    }
    if (path === "/readyz") {
      // A replica that is shutting down leaves the load balancer's rotation first.
      if (services.syncs.isStopping) {
        return sendJson(res, 503, { status: "unavailable", reason: "shutting down" });
      }
      try {
        await services.db.checkReady();
        return sendJson(res, 200, { status: "ready" });
      } catch (error) {
        services.logger.warn({ err: error }, "Readiness check failed");
        return sendJson(res, 503, { status: "unavailable", reason: "database" });
      }
    }
    // The probes and /metrics above answer any Host: health checks and Prometheus reach a replica
    // by its own address. TRAP: docs/operations.md "Production mode" — past here, a request naming
    // another host may come from a DNS-rebinding page and must not reach the API or the web app.
    const { publicUrl } = config;
    if (publicUrl && !isPublicHost(req.headers.host, publicUrl))
      return sendJson(res, MISDIRECTED_STATUS, misdirectedRequestBody(publicUrl));
    if (path === BACKUP_PATH) return answerBackup(req, res, services);
    if (path?.startsWith("/auth/oidc/") && (await answerOidc(req, res, path))) return;
    if (path && (await answerInventory(req, res, path))) return;
    if (path === yoga.graphqlEndpoint && serveWebApp && isGraphiqlPageRequest(req)) {
      res.writeHead(302, { location: GRAPHIQL_PATH, "cache-control": "no-store" });
      return res.end();
    }
    if (path === yoga.graphqlEndpoint) {
      const problem = bodyProblem(req);
      if (problem) {
        const { status, message, code } = problem;
        return sendJson(res, status, refusalBody(message, code));
      }
      return yoga(req, res);
    }
    if (serveWebApp && (req.method === "GET" || req.method === "HEAD"))
      return serveWebApp(req, res);
    sendJson(res, 404, { error: "Not found" });
  });
  answerClientErrors(server);
  server.headersTimeout = 20_000;
  server.requestTimeout = 60_000;
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  const websocket = attachWebSocket(server, yoga, services, {
    allowedOrigins: config.allowedOrigins,
    recheckMs: config.subscriptionRecheckMs,
    publicUrl: config.publicUrl,
    clientAddressOf,
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(config.port, config.host, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const host = config.host.includes(":") ? `[${config.host}]` : config.host;
  return {
    url: `http://${host === "0.0.0.0" || host === "[::]" ? "localhost" : host}:${port}`,
    close: async () => {
      await websocket.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

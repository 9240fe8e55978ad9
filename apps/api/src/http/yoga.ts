// The GraphQL endpoint: Yoga with safe defaults, query limits, masked errors and sign-in cookies.
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { costLimitPlugin } from "@escape.tech/graphql-armor-cost-limit";
import { maxAliasesPlugin } from "@escape.tech/graphql-armor-max-aliases";
import { maxDepthPlugin } from "@escape.tech/graphql-armor-max-depth";
import { maxTokensPlugin } from "@escape.tech/graphql-armor-max-tokens";
import { useCSRFPrevention } from "@graphql-yoga/plugin-csrf-prevention";
import { createYoga, type Plugin, useExecutionCancellation } from "graphql-yoga";
import { authenticate, type Credentials } from "../auth/authenticate.ts";
import { sessionSecretFromCookieHeader } from "../auth/sessions.ts";
import type { Config } from "../config.ts";
import type { AppServices, Context } from "../context.ts";
import { maskError, tagTooComplex } from "../errors.ts";
import { useGraphqlMetrics } from "../metrics/graphql-metrics-plugin.ts";
import { schema } from "../schema/index.ts";
import { useGraphqlTracing } from "../telemetry/graphql-tracing-plugin.ts";
import { clientAddressResolver } from "./client-address.ts";
import { credentialsFromHeaders } from "./credential-recheck.ts";
import { REQUEST_LIMITS } from "./limits.ts";
import { useMalformedParametersAreBadRequests } from "./malformed-parameters.ts";
import { usePasswordChangeGate } from "./password-change-gate.ts";
import { useProductionSchemaPrivacy, withoutSuggestions } from "./production-schema-privacy.ts";
import { useRefuseUnstorableText } from "./refuse-unstorable-text.ts";
import { useSseSubscriptionRecheck } from "./sse-subscription-recheck.ts";
import { useJsonUnsupportedMediaType } from "./unsupported-media-type.ts";

/** What the Node adapter passes along with each request. */
export interface ServerContext {
  req?: IncomingMessage;
}

/** Carries Set-Cookie values from a resolver to the HTTP response. */
function useResponseCookies(cookiesOf: WeakMap<Request, string[]>): Plugin {
  return {
    onResponse: ({ request, response }) => {
      for (const cookie of cookiesOf.get(request) ?? [])
        response.headers.append("Set-Cookie", cookie);
    },
  };
}

/** Counts a request that presented a token or session which is not (or no longer) valid. */
export function countRejectedCredentials(services: AppServices, credentials: Credentials) {
  if (credentials.authorization) services.metrics.authFailures.inc({ reason: "bad_token" });
  else if (sessionSecretFromCookieHeader(credentials.cookie)) {
    services.metrics.authFailures.inc({ reason: "bad_session" });
  }
}

/** Builds the Yoga instance for the given services. */
export function createGraphqlHandler(services: AppServices, config: Config) {
  const cookiesOf = new WeakMap<Request, string[]>();
  const clientAddressOf = clientAddressResolver(config.trustedProxies);
  const logUnexpected = (error: unknown) =>
    services.logger.error({ err: error }, "Unexpected error in a GraphQL request");
  return createYoga<ServerContext, Context>({
    schema,
    graphqlEndpoint: "/graphql",
    // TRAP: docs/behaviour.md §11.3 — Yoga's GraphiQL loads from a CDN; ours is in the web build.
    graphiql: false,
    landingPage: !config.isProduction,
    multipart: false,
    batching: false,
    cors: false,
    logging: false,
    maskedErrors: {
      maskError: (error, message) => {
        const masked = maskError(error, message, logUnexpected);
        // TRAP: docs/operations.md "Production mode" — suggestions name fields introspection hides.
        return config.isProduction ? withoutSuggestions(masked) : masked;
      },
    },
    plugins: [
      // TRAP: docs/api.md — listing "content-type" here let any form or text/plain POST through:
      // a browser sends those cross-site without a preflight. A JSON body needs a preflight already.
      useCSRFPrevention({ requestHeaders: ["x-graphql-yoga-csrf"] }),
      useExecutionCancellation(),
      useJsonUnsupportedMediaType(),
      useMalformedParametersAreBadRequests(),
      useRefuseUnstorableText(),
      usePasswordChangeGate(),
      maxTokensPlugin({ n: REQUEST_LIMITS.maxTokens, onReject: [tagTooComplex] }),
      maxDepthPlugin({ n: REQUEST_LIMITS.maxDepth, onReject: [tagTooComplex] }),
      maxAliasesPlugin({ n: REQUEST_LIMITS.maxAliases, onReject: [tagTooComplex] }),
      costLimitPlugin({ maxCost: REQUEST_LIMITS.maxCost, onReject: [tagTooComplex] }),
      useResponseCookies(cookiesOf),
      useSseSubscriptionRecheck(services, config.subscriptionRecheckMs),
      useGraphqlMetrics(services.metrics),
      useGraphqlTracing(() => services.tracing),
      config.isProduction && useProductionSchemaPrivacy(),
    ],
    context: async ({ request, req }): Promise<Context> => {
      const responseCookies: string[] = [];
      cookiesOf.set(request, responseCookies);
      const credentials = credentialsFromHeaders(request.headers);
      const viewer = await authenticate(services.prisma, credentials, services.sessionPolicy);
      if (!viewer) countRejectedCredentials(services, credentials);
      return {
        ...services,
        viewer,
        clientAddress: req && clientAddressOf(req),
        userAgent: request.headers.get("user-agent") ?? undefined,
        responseCookies,
        requestId: request.headers.get("x-request-id") ?? randomUUID(),
      };
    },
  });
}

// The GraphQL endpoint: Yoga with safe defaults, query limits, masked errors and sign-in cookies.
import { randomUUID } from "node:crypto";
import type { IncomingMessage } from "node:http";
import { costLimitPlugin } from "@escape.tech/graphql-armor-cost-limit";
import { maxAliasesPlugin } from "@escape.tech/graphql-armor-max-aliases";
import { maxDepthPlugin } from "@escape.tech/graphql-armor-max-depth";
import { maxTokensPlugin } from "@escape.tech/graphql-armor-max-tokens";
import { useCSRFPrevention } from "@graphql-yoga/plugin-csrf-prevention";
import { ERROR_CODES } from "@hyperlens/shared";
import { PothosValidationError } from "@pothos/core";
import { GraphQLError } from "graphql";
import { createYoga, type Plugin, useExecutionCancellation } from "graphql-yoga";
import { authenticate, type Credentials } from "../auth/authenticate.ts";
import { sessionSecretFromCookieHeader } from "../auth/sessions.ts";
import type { Config } from "../config.ts";
import type { AppServices, Context } from "../context.ts";
import { useGraphqlMetrics } from "../metrics/graphql-metrics-plugin.ts";
import { schema } from "../schema/index.ts";
import { NotFoundError, ShuttingDownError, ValidationError } from "../services/errors.ts";
import { useGraphqlTracing } from "../telemetry/graphql-tracing-plugin.ts";
import { clientAddressResolver } from "./client-address.ts";
import { credentialsFromHeaders } from "./credential-recheck.ts";
import { REQUEST_LIMITS } from "./limits.ts";
import { useMalformedParametersAreBadRequests } from "./malformed-parameters.ts";
import { useProductionSchemaPrivacy, withoutSuggestions } from "./production-schema-privacy.ts";
import { useRefuseUnstorableText } from "./refuse-unstorable-text.ts";
import { tagTooComplex, withInputErrorCode } from "./request-error-codes.ts";
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
  const maskError = (error: unknown, message: string): GraphQLError => {
    // Errors we raised on purpose carry a code and a message for a person; the rest is masked.
    if (error instanceof GraphQLError) {
      const original = error.originalError;
      // Pothos refuses a malformed or foreign global id before any resolver runs.
      if (original instanceof PothosValidationError || error instanceof PothosValidationError) {
        return new GraphQLError(error.message, {
          ...(error.path ? { path: error.path } : {}),
          extensions: { code: ERROR_CODES.BAD_USER_INPUT, field: "id" },
        });
      }
      if (!original || original instanceof GraphQLError) return withInputErrorCode(error);
    }
    const original = error instanceof GraphQLError ? error.originalError : error;
    if (original instanceof NotFoundError) {
      return new GraphQLError(original.message, {
        extensions: { code: ERROR_CODES.NOT_FOUND },
      });
    }
    if (original instanceof ValidationError) {
      return new GraphQLError(original.message, {
        extensions: {
          code: ERROR_CODES.BAD_USER_INPUT,
          field: original.field,
          problems: original.problems,
        },
      });
    }
    if (original instanceof ShuttingDownError) {
      return new GraphQLError(original.message, {
        extensions: { code: ERROR_CODES.SHUTTING_DOWN },
      });
    }
    services.logger.error({ err: original }, "Unexpected error in a GraphQL request");
    return new GraphQLError(message, {
      extensions: { code: ERROR_CODES.INTERNAL_SERVER_ERROR },
    });
  };
  return createYoga<ServerContext, Context>({
    schema,
    graphqlEndpoint: "/graphql",
    graphiql: !config.isProduction,
    landingPage: !config.isProduction,
    multipart: false,
    batching: false,
    cors: false,
    logging: false,
    maskedErrors: {
      maskError: (error, message) => {
        const masked = maskError(error, message);
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
        responseCookies,
        requestId: request.headers.get("x-request-id") ?? randomUUID(),
      };
    },
  });
}

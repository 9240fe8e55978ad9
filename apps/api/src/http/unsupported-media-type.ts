// Yoga answers a body it has no parser for (XML, a made-up type) with an empty 415; clients get
// GraphQL-shaped JSON with a code instead, like every other refusal.
import type { Plugin } from "graphql-yoga";
import { ERROR_CODES, refusalBody } from "../errors.ts";

/** Answers a request whose Content-Type no parser accepts with a JSON 415. */
export function useJsonUnsupportedMediaType(): Plugin {
  return {
    onRequestParse: ({ requestParser, endResponse, fetchAPI }) => {
      // Yoga's own parsers are installed before this plugin; none matched this request.
      if (requestParser) return;
      const body = refusalBody(
        "Send the request as application/json (or application/graphql).",
        ERROR_CODES.BAD_REQUEST,
      );
      endResponse(
        new fetchAPI.Response(JSON.stringify(body), {
          status: 415,
          statusText: "Unsupported Media Type",
          headers: { "content-type": "application/json" },
        }),
      );
    },
  };
}

// Yoga answers a body it has no parser for (XML, a made-up type) with an empty 415; clients get
// GraphQL-shaped JSON with a code instead, like every other refusal.
import type { Plugin } from "graphql-yoga";

/** Answers a request whose Content-Type no parser accepts with a JSON 415. */
export function useJsonUnsupportedMediaType(): Plugin {
  return {
    onRequestParse: ({ requestParser, endResponse, fetchAPI }) => {
      // Yoga's own parsers are installed before this plugin; none matched this request.
      if (requestParser) return;
      const body = {
        errors: [
          {
            message: "Send the request as application/json (or application/graphql).",
            extensions: { code: "BAD_REQUEST" },
          },
        ],
      };
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

// Yoga parses the `variables` and `extensions` of a GET address (or a form body) with a bare
// JSON.parse, so text that is not JSON escaped as a SyntaxError and was answered 200 "Unexpected
// error." It is the client's mistake: a 400 with a code, as Yoga answers a POST body that is not JSON.
import type { Plugin } from "graphql-yoga";
import { ERROR_CODES, HyperlensError } from "../errors.ts";

const JSON_PARAMETERS = ["variables", "extensions"] as const;

/** The JSON parameter of the request's address that does not parse, if one does not. */
function unparsableParameterOf(request: Request): string | undefined {
  const params = new URL(request.url).searchParams;
  return JSON_PARAMETERS.find((name) => {
    const value = params.get(name);
    if (!value) return false;
    try {
      JSON.parse(value);
      return false;
    } catch {
      return true;
    }
  });
}

/** Answers a request whose `variables` or `extensions` is not JSON with 400 BAD_REQUEST. */
export function useMalformedParametersAreBadRequests(): Plugin {
  return {
    onRequestParse: ({ request, requestParser, setRequestParser }) => {
      if (!requestParser) return;
      setRequestParser(async (parsed) => {
        try {
          return await requestParser(parsed);
        } catch (error) {
          // Yoga turns a body that is not JSON into a GraphQLError itself; a SyntaxError that
          // escapes its parsers comes from one of these parameters.
          if (!(error instanceof SyntaxError)) throw error;
          const name = unparsableParameterOf(request) ?? "variables or extensions";
          throw new HyperlensError(
            `The ${name} parameter is not valid JSON.`,
            ERROR_CODES.BAD_REQUEST,
            { http: { status: 400 } },
          );
        }
      });
    },
  };
}

// What a caller can learn about the schema in production. Anonymous callers get no introspection
// (the sign-in page needs none); signed-in users and API tokens keep it, for codegen and IDEs.
// "Did you mean …?" suggestions would map the schema without introspection, so production drops
// them for everyone: a signed-in caller who wants names can introspect.
import {
  type DocumentNode,
  GraphQLError,
  type GraphQLSchema,
  NoSchemaIntrospectionCustomRule,
  validate,
} from "graphql";
import type { Plugin } from "graphql-yoga";
import type { Context } from "../context.ts";
import { NotAuthenticatedError } from "../errors.ts";

const INTROSPECTION_REFUSED = new NotAuthenticatedError(
  "Introspection needs a signed-in session or an API token.",
);

/** graphql-js ends a message with its suggestions; GraphQL names hold no "?". */
const SUGGESTION = /\s*Did you mean [^?]*\?$/;

/** True when an anonymous caller's document asks for `__schema` or `__type`. */
function isAnonymousIntrospection(args: {
  contextValue: Context;
  schema: GraphQLSchema;
  document: DocumentNode;
}): boolean {
  if (args.contextValue.viewer) return false;
  return validate(args.schema, args.document, [NoSchemaIntrospectionCustomRule]).length > 0;
}

/**
 * Production's schema privacy for GraphQL: `__schema` and `__type` are refused to callers without
 * a session or token, and validation errors lose their suggestions (execution errors lose them in
 * the error masking, through {@link withoutSuggestions}).
 */
export function useProductionSchemaPrivacy(): Plugin<Context> {
  // TRAP: docs/operations.md "Production mode" — without these anyone can read the whole schema.
  return {
    onValidate:
      () =>
      ({ valid, result, setResult }) => {
        if (!valid)
          setResult(
            result.map((error) =>
              error instanceof GraphQLError ? withoutSuggestions(error) : error,
            ),
          );
      },
    onExecute: ({ args, setResultAndStopExecution }) => {
      if (isAnonymousIntrospection(args))
        setResultAndStopExecution({ errors: [INTROSPECTION_REFUSED] });
    },
    onSubscribe: ({ args, setResultAndStopExecution }) => {
      if (isAnonymousIntrospection(args))
        setResultAndStopExecution({ errors: [INTROSPECTION_REFUSED] });
    },
  };
}

/** `error` without graphql-js's "Did you mean …?" suggestion of field, type or value names. */
export function withoutSuggestions(error: GraphQLError): GraphQLError {
  if (!SUGGESTION.test(error.message)) return error;
  return new GraphQLError(error.message.replace(SUGGESTION, ""), {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: error.extensions,
  });
}

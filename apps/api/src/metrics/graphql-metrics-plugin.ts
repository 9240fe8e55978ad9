// Times every executed GraphQL operation into the app's histogram.
import { getOperationAST, Kind } from "graphql";
import type { Plugin } from "graphql-yoga";
import type { AppMetrics } from "./metrics.ts";

/**
 * A Yoga plugin observing execution time per operation. Labelled by the first root field, not the
 * client-chosen operation name: root fields are bounded by the schema, names are not.
 */
export function useGraphqlMetrics(metrics: AppMetrics): Plugin {
  return {
    onExecute: ({ args }) => {
      const startedAt = performance.now();
      const operation = getOperationAST(args.document, args.operationName);
      const first = operation?.selectionSet.selections[0];
      const rootField = first?.kind === Kind.FIELD ? first.name.value : "other";
      const operationType = operation?.operation ?? "unknown";
      return {
        onExecuteDone: ({ result }) => {
          const hasErrors =
            "errors" in result && Array.isArray(result.errors) && result.errors.length;
          metrics.graphqlDuration.observe(
            {
              operation_type: operationType,
              root_field: rootField,
              has_errors: hasErrors ? "true" : "false",
            },
            (performance.now() - startedAt) / 1000,
          );
        },
      };
    },
  };
}

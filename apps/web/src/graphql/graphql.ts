// The one `graphql()` every document in the web app is written with. gql.tada types each document's
// result and variables from the committed apps/api/schema.graphql (introspected into
// graphql-env.d.ts by `npm run generate:graphql-env`), so `tsc` fails when a document asks for
// something the schema lacks, and urql's hooks take their types from the document.
import type { JsonValue } from "@hyperlens/shared";
import { initGraphQLTada } from "gql.tada";
import type { introspection } from "./graphql-env.d.ts";

export const graphql = initGraphQLTada<{
  introspection: introspection;
  scalars: {
    // The API serialises DateTime as an ISO 8601 string; JSON is any stored JSON value.
    DateTime: string;
    JSON: JsonValue;
  };
  // A spread fragment's fields are part of the result: fragments share field lists, nothing more.
  disableMasking: true;
}>();

export type { ResultOf, VariablesOf } from "gql.tada";

/** The TypeScript type of one of the schema's enums, scalars or input types, by name. */
export type SchemaType<Name extends string> = ReturnType<typeof graphql.scalar<Name>>;

// Whole hostile GraphQL requests for every mutation the schema has: the document (variables or
// inline literals, aliases, nested fragments, wrong operation names), the variables (generated from
// the argument types, plus unknown ones by the thousand) and the transport (credentials, content
// type, broken JSON, GET, wrong method).
import fc from "fast-check";
import {
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLOutputType,
  type GraphQLSchema,
  getNamedType,
  isAbstractType,
  isLeafType,
  isNonNullType,
  isObjectType,
} from "graphql";
import { DeepValue, EnumValue, inputValue, type ValueHints } from "./input-values.ts";

/** Who sends the request. */
export type FuzzAuth = "session" | "token" | "anonymous";

/** How the request is put on the wire. */
export type FuzzEncoding =
  | "json"
  | "json-wrong-charset"
  | "invalid-json"
  | "odd-json"
  | "form"
  | "text-plain"
  | "multipart"
  | "no-content-type"
  | "application-graphql"
  | "xml"
  | "get"
  | "put";

/** A generated request, before credentials are attached. */
export interface FuzzRequest {
  mutation: string;
  auth: FuzzAuth;
  encoding: FuzzEncoding;
  query: string;
  variables: Record<string, unknown>;
  operationName: string | undefined;
  /** For `invalid-json`: where the JSON text is cut, as a fraction of its length. */
  cut: number;
  /** For `odd-json`: which well-formed but wrong body is sent. */
  oddBody: unknown;
}

/** Content types a browser may send cross-site without a preflight (CSRF prevention must refuse them). */
export const SIMPLE_ENCODINGS: ReadonlySet<FuzzEncoding> = new Set([
  "form",
  "text-plain",
  "multipart",
  "no-content-type",
]);

const NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/** Prints a JSON-ish value as a GraphQL literal (wrong types are printed as whatever they are). */
export function toLiteral(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (value instanceof DeepValue) return value.toLiteral();
  if (value instanceof EnumValue)
    return NAME.test(value.name) ? value.name : JSON.stringify(value.name);
  if (typeof value === "string") return JSON.stringify(value);
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "0";
  if (typeof value === "boolean") return String(value);
  if (Array.isArray(value)) return `[${value.map(toLiteral).join(", ")}]`;
  const entries = Object.entries(value as Record<string, unknown>).map(
    ([key, item], i) => `${NAME.test(key) ? key : `k${i}`}: ${toLiteral(item)}`,
  );
  return `{${entries.join(", ")}}`;
}

/** A selection of every leaf field (and objects two levels down), so results get serialized. */
function selectionFor(type: GraphQLOutputType, schema: GraphQLSchema, depth = 0): string {
  const named = getNamedType(type);
  if (isLeafType(named)) return "";
  if (isAbstractType(named)) {
    const parts = schema
      .getPossibleTypes(named)
      .map((t) => `... on ${t.name} ${selectionFor(t, schema, depth)}`);
    return `{ __typename ${parts.join(" ")} }`;
  }
  if (!isObjectType(named)) return "";
  const fields = Object.values(named.getFields()).filter(
    (f) => !f.args.some((a) => isNonNullType(a.type)),
  );
  const parts = fields.flatMap((f) => {
    if (isLeafType(getNamedType(f.type))) return [f.name];
    return depth < 2 ? [`${f.name} ${selectionFor(f.type, schema, depth + 1)}`] : [];
  });
  return `{ __typename ${parts.join(" ")} }`;
}

const aliasCount = fc.oneof(
  { weight: 12, arbitrary: fc.constant(1) },
  { weight: 2, arbitrary: fc.integer({ min: 2, max: 5 }) },
  { weight: 1, arbitrary: fc.integer({ min: 19, max: 25 }) },
);

const fragmentNesting = fc.oneof(
  { weight: 12, arbitrary: fc.constant(0) },
  { weight: 1, arbitrary: fc.integer({ min: 20, max: 400 }) },
);

const extraVariableCount = fc.oneof(
  { weight: 12, arbitrary: fc.constant(0) },
  { weight: 1, arbitrary: fc.integer({ min: 100, max: 3000 }) },
);

const encoding: fc.Arbitrary<FuzzEncoding> = fc.oneof(
  { weight: 24, arbitrary: fc.constant("json" as const) },
  {
    weight: 6,
    arbitrary: fc.constantFrom<FuzzEncoding>(
      "json-wrong-charset",
      "invalid-json",
      "odd-json",
      "form",
      "text-plain",
      "multipart",
      "no-content-type",
      "application-graphql",
      "xml",
      "get",
      "put",
    ),
  },
);

const auth: fc.Arbitrary<FuzzAuth> = fc.oneof(
  { weight: 5, arbitrary: fc.constant("session" as const) },
  { weight: 4, arbitrary: fc.constant("token" as const) },
  { weight: 1, arbitrary: fc.constant("anonymous" as const) },
);

const oddBody = fc.oneof(
  fc.constantFrom(null, [], {}, "mutation { signOut }", 42, true, { query: 5 }, { query: null }),
  fc.record({ query: fc.constant("mutation { signOut }"), variables: fc.jsonValue() }),
  fc.record({ query: fc.constant("mutation { signOut }"), extensions: fc.jsonValue() }),
  fc.record({ query: fc.constant("mutation { signOut }"), operationName: fc.jsonValue() }),
);

function argumentValues(args: readonly GraphQLArgument[], hints: ValueHints) {
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const arg of args) record[arg.name] = inputValue(arg.type, arg.name, hints);
  return fc.record(record);
}

/** Requests for one mutation field. */
function requestsFor(
  field: GraphQLField<unknown, unknown>,
  schema: GraphQLSchema,
  hints: ValueHints,
): fc.Arbitrary<FuzzRequest> {
  const selection = selectionFor(field.type, schema);
  return fc
    .record({
      values: argumentValues(field.args, hints),
      useLiterals: fc.boolean(),
      declareAsString: fc.integer({ min: 0, max: 19 }).map((n) => n === 0),
      unknownArgument: fc.integer({ min: 0, max: 19 }).map((n) => n === 0),
      aliases: aliasCount,
      nesting: fragmentNesting,
      extraVariables: extraVariableCount,
      operation: fc.oneof(
        { weight: 8, arbitrary: fc.constant("named") },
        { weight: 2, arbitrary: fc.constantFrom("anonymous", "two") },
        { weight: 1, arbitrary: fc.constant("wrong-name") },
      ),
      auth,
      encoding,
      cut: fc.double({ min: 0, max: 1, noNaN: true }),
      oddBody,
    })
    .map((g): FuzzRequest => {
      const present = field.args.filter((a) => g.values[a.name] !== undefined);
      const definitions = g.useLiterals
        ? ""
        : field.args
            .map((a) => `$${a.name}: ${g.declareAsString ? "String" : String(a.type)}`)
            .join(", ");
      const args = present.map((a) =>
        g.useLiterals ? `${a.name}: ${toLiteral(g.values[a.name])}` : `${a.name}: $${a.name}`,
      );
      if (g.unknownArgument) args.push("notAnArgument: 1");
      const call = `${field.name}${args.length ? `(${args.join(", ")})` : ""} ${selection}`;
      const body = Array.from({ length: g.aliases }, (_, i) => `a${i}: ${call}`).join(" ");
      const wrapped = `${"... on Mutation { ".repeat(g.nesting)}${body}${" }".repeat(g.nesting)}`;
      const header = g.operation === "anonymous" ? "mutation" : "mutation Fuzz";
      const head = definitions ? `${header}(${definitions})` : header;
      const second = g.operation === "two" ? " mutation Other { signOut }" : "";
      const variables: Record<string, unknown> = {};
      for (let i = 0; i < g.extraVariables; i++) variables[`extra${i}`] = i;
      if (!g.useLiterals) {
        for (const a of present) variables[a.name] = g.values[a.name];
      }
      return {
        mutation: field.name,
        auth: g.auth,
        encoding: g.encoding,
        query: `${head} { ${wrapped} }${second}`,
        variables,
        operationName:
          g.operation === "wrong-name"
            ? "NotThere"
            : g.operation === "anonymous"
              ? undefined
              : "Fuzz",
        cut: g.cut,
        oddBody: g.oddBody,
      };
    });
}

/**
 * Requests for every mutation of the schema, read from the schema itself: a mutation added later
 * is fuzzed without touching this file.
 */
export function mutationRequests(
  schema: GraphQLSchema,
  hints: ValueHints,
): { names: string[]; requests: fc.Arbitrary<FuzzRequest> } {
  const mutation = schema.getMutationType();
  if (!mutation) throw new Error("the schema has no mutations");
  const fields = Object.values(mutation.getFields());
  return {
    names: fields.map((f) => f.name),
    requests: fc.oneof(...fields.map((f) => requestsFor(f, schema, hints))),
  };
}

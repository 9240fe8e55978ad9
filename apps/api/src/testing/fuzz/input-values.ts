// fast-check generators of GraphQL input values, derived from the schema's own input types: mostly
// plausible values with a hostile one somewhere (wrong type, missing or unknown field, huge or
// strange text, deep nesting), so the server's coercion, validation and services all get reached.
import fc from "fast-check";
import {
  type GraphQLInputType,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
} from "graphql";
import { REQUEST_LIMITS } from "../../http/limits.ts";

/** An enum value: a bare name in a document, a string in variables. */
export class EnumValue {
  constructor(readonly name: string) {}
  toJSON(): string {
    return this.name;
  }
}

/** What the generators may use besides the schema: real ids and addresses of the running app. */
export interface ValueHints {
  /** Global ids of objects that exist (connections, tokens), so mutations get past "not found". */
  realIds: readonly string[];
  /** https addresses that answer fast (a stand-in) or fail fast (a closed port). */
  urls: readonly string[];
  /** A CA certificate (PEM) the app accepts. */
  caPem: string;
}

/** Text an attacker or a broken client sends: controls, NUL, bidi overrides, astral, lone surrogates. */
const STRANGE_TEXT = [
  "",
  " ",
  "\u0000",
  "a\u0000b",
  "\u0001\u0002\u001b[31m\u007f",
  "\r\n\t",
  "\u202Eevil\u202C",
  "\u200F\u05E9\u05DC\u05D5\u05DD",
  "\uFEFF",
  "𝕳𝖞𝖕𝖊𝖗𝖑𝖊𝖓𝖘 🚀👩‍💻",
  "\uD800",
  "\uDFFF\uD800",
  "\uFFFF",
  "Ω≈ç√∫",
  "%s%n%x",
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a log-injection probe, not a template
  "${jndi:ldap://x}",
  "'; DROP TABLE connections; --",
  '"\\',
  "<script>alert(1)</script>",
  "__proto__",
  "constructor",
  "NaN",
  "-0",
  "1e309",
  "0x10",
  "true",
  "null",
  "user@pve",
  "root@pam!token",
  "admin@System",
  "a:b@org",
  "••••••••",
] as const;

const strange = fc.constantFrom(...STRANGE_TEXT);

/** Sizes around the request body cap: just under it (the server reads it) and just over (413). */
const hugeText = fc
  .record({
    unit: fc.constantFrom("a", "é", "𝕳", "\u0000", "\u202E", "\\"),
    size: fc.constantFrom(
      Math.floor(REQUEST_LIMITS.maxBodyBytes / 8),
      REQUEST_LIMITS.maxBodyBytes - 4096,
      REQUEST_LIMITS.maxBodyBytes + 1,
    ),
  })
  .map(({ unit, size }) => unit.repeat(Math.max(1, Math.floor(size / Buffer.byteLength(unit)))));

/** Any text: random code points, random graphemes, strange samples, and (rarely) huge. */
export const anyText: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.string({ maxLength: 40 }) },
  { weight: 3, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 2, arbitrary: fc.string({ unit: "grapheme", maxLength: 20 }) },
  { weight: 4, arbitrary: strange },
  {
    weight: 1,
    arbitrary: fc
      .tuple(strange, fc.string({ maxLength: 8 }), strange)
      .map(([a, b, c]) => `${a}${b}${c}`),
  },
  { weight: 1, arbitrary: hugeText },
);

/**
 * A value nested `depth` levels deep, alternating lists and objects. Built only when sent, so
 * fast-check can print a failing case without recursing through it.
 */
export class DeepValue {
  constructor(readonly depth: number) {}
  /** A marker {@link stringify} replaces: JSON.stringify itself overflows the stack at this depth. */
  toJSON(): string {
    return `@@deep:${this.depth}@@`;
  }
  /** The value as JSON text. */
  toJsonText(): string {
    return this.#build(
      '"x"',
      (inner) => `[${inner}]`,
      (inner) => `{"a":${inner}}`,
    );
  }
  /** The value as a GraphQL literal. */
  toLiteral(): string {
    return this.#build(
      '"x"',
      (inner) => `[${inner}]`,
      (inner) => `{a: ${inner}}`,
    );
  }
  #build(leaf: string, list: (s: string) => string, object: (s: string) => string): string {
    let text = leaf;
    for (let i = 0; i < this.depth; i++) text = i % 2 === 0 ? list(text) : object(text);
    return text;
  }
  [fc.toStringMethod](): string {
    return `DeepValue(${this.depth})`;
  }
}

/** JSON.stringify that writes {@link DeepValue}s out in full. */
export function stringify(value: unknown): string {
  return (JSON.stringify(value) ?? "null").replace(/"@@deep:(\d+)@@"/g, (_, depth: string) =>
    new DeepValue(Number(depth)).toJsonText(),
  );
}

/** A value of any JSON type, including deeply nested ones. */
export const anyJson: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 6, arbitrary: fc.jsonValue({ maxDepth: 3 }) },
  { weight: 1, arbitrary: fc.constantFrom(1_000, 20_000).map((depth) => new DeepValue(depth)) },
  { weight: 2, arbitrary: anyText },
);

/** A value of the wrong kind for the position it is put in. */
const wrongKind: fc.Arbitrary<unknown> = fc.oneof(
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double({ noNaN: true }),
  fc.constantFrom(2 ** 31, -(2 ** 31) - 1, Number.MAX_SAFE_INTEGER + 2, 1e308, -1e-308, 0.5),
  anyText,
  fc.array(fc.jsonValue({ maxDepth: 1 }), { maxLength: 3 }),
  fc.dictionary(fc.string({ maxLength: 6 }), fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }),
  anyJson,
);

/** The name of an input field: a plausible value is offered for the ones we know. */
function hinted(name: string, hints: ValueHints): fc.Arbitrary<string> | undefined {
  switch (name) {
    case "url":
      return fc.oneof(
        { weight: 6, arbitrary: fc.constantFrom(...hints.urls) },
        { weight: 2, arbitrary: fc.constant("http://127.0.0.1:1") },
        { weight: 2, arbitrary: fc.constantFrom("https://", "ftp://x", "https://[::1", "//x") },
      );
    case "username":
      return fc.constantFrom("inventory@pve", "hyperlens@org", "admin@System", "reader");
    case "tokenId":
      return fc.constantFrom("inventory", "inventory", "", "a", "x!y");
    case "caPem":
      return fc.oneof(
        { weight: 3, arbitrary: fc.constant(hints.caPem) },
        {
          weight: 1,
          arbitrary: fc.constant("-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----"),
        },
      );
    case "secret":
    case "password":
      return fc.constantFrom("correct horse battery staple", "••••••••", "short");
    case "name":
      return fc.string({ minLength: 1, maxLength: 12 }).map((s) => `fuzz ${s}`);
    default:
      return undefined;
  }
}

/** `value` one time in eight, null otherwise. */
function rarely<T>(value: fc.Arbitrary<T>): fc.Arbitrary<T | null> {
  return fc.oneof({ weight: 7, arbitrary: fc.constant(null) }, { weight: 1, arbitrary: value });
}

/** Whole numbers: in range for the fields we know most of the time, just outside it, or wild. */
function intValue(field: string): fc.Arbitrary<number> {
  const wild = fc.oneof(
    fc.integer({ min: -5, max: 1_000_000 }),
    fc.constantFrom(0, -1, 2 ** 31 - 1, -(2 ** 31)),
  );
  const known: Record<string, [number[], number[]]> = {
    syncIntervalSeconds: [
      [60, 900, 3600, 604_800],
      [59, 604_801],
    ],
    maxConcurrentRequests: [
      [1, 4, 16],
      [0, 17],
    ],
    maxRequestsPerNode: [
      [1, 2, 16],
      [0, 17],
    ],
    lightPollSeconds: [
      [0, 5, 15, 3600],
      [-1, 4, 3601],
    ],
  };
  const range = known[field];
  if (!range) return wild;
  return fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom(...range[0]) },
    { weight: 2, arbitrary: fc.constantFrom(...range[1]) },
    { weight: 1, arbitrary: wild },
  );
}

/** Global ids: real ones, foreign ones, malformed ones. */
function idValue(hints: ValueHints): fc.Arbitrary<string> {
  const encode = (typename: string, id: string) =>
    Buffer.from(`${typename}:${id}`).toString("base64");
  return fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(...hints.realIds) },
    {
      weight: 3,
      arbitrary: fc
        .tuple(fc.constantFrom("Connection", "ApiToken", "User", "SyncRun", "X"), fc.uuid())
        .map(([t, id]) => encode(t, id)),
    },
    {
      weight: 2,
      arbitrary: fc
        .tuple(fc.constantFrom("Connection", "ApiToken", ""), anyText)
        .map(([t, id]) => encode(t, id)),
    },
    { weight: 2, arbitrary: anyText },
  );
}

/** Dates: ordinary, edge of JavaScript's range, outside PostgreSQL's, and not dates at all. */
const dateValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString()),
  fc.constantFrom(
    "2030-01-01T00:00:00Z",
    "1970-01-01T00:00:00.000Z",
    "-271821-04-20T00:00:00.000Z",
    "+275760-09-13T00:00:00.000Z",
    "-004714-11-23T00:00:00Z",
    "0000-00-00",
    "2024-02-30",
    "tomorrow",
  ),
  fc.integer(),
);

function scalarValue(name: string, field: string, hints: ValueHints): fc.Arbitrary<unknown> {
  switch (name) {
    case "ID":
      return idValue(hints);
    case "Int":
      return intValue(field);
    case "Float":
      return fc.double({ noNaN: true, noDefaultInfinity: true });
    case "Boolean":
      return fc.boolean();
    case "DateTime":
      return dateValue;
    case "JSON":
      return anyJson;
    default: {
      const hint = hinted(field, hints);
      return hint
        ? fc.oneof({ weight: 7, arbitrary: hint }, { weight: 1, arbitrary: anyText })
        : anyText;
    }
  }
}

/**
 * A generator of values for `type`: plausible most of the time, hostile in a few places. `field`
 * is the name of the argument or input field the value is for (it picks plausible text).
 */
export function inputValue(
  type: GraphQLInputType,
  field: string,
  hints: ValueHints,
  isNested = false,
): fc.Arbitrary<unknown> {
  const inner = getNullableType(type);
  const plausible = plausibleValue(inner, field, hints);
  const hostile = isNonNullType(type)
    ? wrongKind
    : fc.oneof(wrongKind, fc.constant(null), fc.constant(undefined));
  // Fields of an input object are many: fewer hostile ones each, so whole inputs still get through.
  const given = fc.oneof(
    { weight: isNested ? 24 : 9, arbitrary: plausible },
    { weight: 1, arbitrary: hostile },
  );
  if (!isNested || isNonNullType(type)) return given;
  // An optional field left out; an input's `id` mostly so (without it a save creates).
  const leftOut = field === "id" ? 2 : 1;
  return fc.oneof(
    { weight: 2, arbitrary: given },
    { weight: leftOut, arbitrary: fc.constant(undefined) },
  );
}

function plausibleValue(
  type: GraphQLInputType,
  field: string,
  hints: ValueHints,
): fc.Arbitrary<unknown> {
  if (isListType(type)) {
    const item = inputValue(type.ofType, field, hints);
    return fc.oneof(
      { weight: 6, arbitrary: fc.array(item, { maxLength: 4 }) },
      // A single value where a list is expected is coerced to a list of one.
      { weight: 1, arbitrary: item },
      // Long lists of short items: 300 texts near the body cap, times a request's aliases, would
      // be more than a JavaScript string can hold (a RangeError in the generator, not the server).
      {
        weight: 1,
        arbitrary: fc.array(
          item.filter((v) => typeof v !== "string" || v.length < 10_000),
          { minLength: 200, maxLength: 300 },
        ),
      },
    );
  }
  if (isEnumType(type)) {
    const names = type.getValues().map((v) => v.name);
    return fc.oneof(
      { weight: 8, arbitrary: fc.constantFrom(...names).map((n) => new EnumValue(n)) },
      { weight: 1, arbitrary: fc.constantFrom(...names).map((n) => n.toLowerCase()) },
      { weight: 1, arbitrary: anyText.map((n) => new EnumValue(n)) },
    );
  }
  if (isScalarType(type)) return scalarValue(type.name, field, hints);
  if (isInputObjectType(type)) {
    const fields = Object.values(type.getFields());
    const record: Record<string, fc.Arbitrary<unknown>> = {};
    const requiredKeys: string[] = [];
    for (const f of fields) {
      record[f.name] = inputValue(f.type, f.name, hints, true);
      if (isNonNullType(f.type)) requiredKeys.push(f.name);
    }
    return fc
      .record({
        // Every field is given; an optional one may still be null or (hostile) left out.
        value: fc.record(record),
        dropRequired: rarely(fc.constantFrom(...(requiredKeys.length ? requiredKeys : ["-"]))),
        unknown: rarely(
          fc.dictionary(fc.string({ minLength: 1, maxLength: 8 }), anyJson, { maxKeys: 3 }),
        ),
      })
      .map(({ value, dropRequired, unknown }) => {
        const out: Record<string, unknown> = { ...unknown, ...value };
        if (dropRequired) delete out[dropRequired];
        return out;
      });
  }
  return wrongKind;
}

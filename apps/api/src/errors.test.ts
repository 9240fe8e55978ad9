// The one error model holds: every code the API sets is listed in ERROR_CODES, errors are raised
// as HyperlensErrors (not built by hand), and what a client sees of any other error is masked.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { PothosValidationError } from "@pothos/core";
import { GraphQLError, locatedError } from "graphql";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import {
  ERROR_CODES,
  ForbiddenError,
  type HyperlensError,
  InvalidCredentialsError,
  maskError,
  NotAuthenticatedError,
  NotFoundError,
  RateLimitedError,
  ShuttingDownError,
  ValidationError,
} from "./errors.ts";

const src = import.meta.dirname;
const LISTED = new Set<string>(Object.values(ERROR_CODES));

/**
 * Where a GraphQLError may be built by hand: this model itself, a custom scalar's parse error
 * (graphql-js gives it its code: BAD_USER_INPUT for a variable, GRAPHQL_VALIDATION_FAILED for a
 * literal) and the production rewording of graphql-js's own messages.
 */
const HAND_BUILT_ALLOWED = ["errors.ts", "schema/builder.ts", "schema/sync-run.ts"];
const REWORDED_ALLOWED = "http/production-schema-privacy.ts";

/** The API's shipped source files, relative to src/. */
function sourceFiles(): string[] {
  return readdirSync(src, { recursive: true, encoding: "utf8" })
    .filter((file) => file.endsWith(".ts") && !file.endsWith(".test.ts"))
    .filter((file) => !file.split(path.sep).includes("testing"))
    .map((file) => file.split(path.sep).join("/"));
}

/** What a file sets as an error code or builds as a GraphQLError, found in its syntax tree. */
function errorsRaisedIn(file: string, text: string) {
  const codes: string[] = [];
  const builtGraphqlErrors: number[] = [];
  const tree = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const visit = (node: ts.Node) => {
    if (
      ts.isPropertyAssignment(node) &&
      node.name.getText(tree) === "code" &&
      ts.isStringLiteralLike(node.initializer) &&
      /^[A-Z][A-Z_]+$/.test(node.initializer.text)
    ) {
      codes.push(node.initializer.text);
    }
    if (ts.isNewExpression(node) && node.expression.getText(tree) === "GraphQLError") {
      builtGraphqlErrors.push(tree.getLineAndCharacterOfPosition(node.getStart(tree)).line + 1);
    }
    ts.forEachChild(node, visit);
  };
  visit(tree);
  return { codes, builtGraphqlErrors };
}

describe("the error model", () => {
  const files = sourceFiles().map((file) => ({
    file,
    ...errorsRaisedIn(file, readFileSync(path.join(src, file), "utf8")),
  }));

  it("reads every source file", () => {
    expect(files.map((f) => f.file)).toEqual(expect.arrayContaining(["errors.ts", "http/yoga.ts"]));
  });

  it("sets no error code that ERROR_CODES does not list", () => {
    const unlisted = files.flatMap(({ file, codes }) =>
      codes.filter((code) => !LISTED.has(code)).map((code) => `${file}: ${code}`),
    );
    expect(unlisted).toEqual([]);
  });

  it("builds GraphQL errors by hand only where the model allows", () => {
    const handBuilt = files
      .filter(({ file }) => !HAND_BUILT_ALLOWED.includes(file))
      .flatMap(({ file, builtGraphqlErrors }) =>
        builtGraphqlErrors.map((line) => `${file}:${line}`),
      )
      .filter((at) => !at.startsWith(`${REWORDED_ALLOWED}:`));
    expect(handBuilt).toEqual([]);
  });

  it("gives every error class a listed code", () => {
    const raised: HyperlensError[] = [
      new NotAuthenticatedError(),
      new ForbiddenError(),
      new NotFoundError("No such connection."),
      new ShuttingDownError("The server is shutting down."),
      new ValidationError("Use 1–100 characters.", "name"),
      new InvalidCredentialsError(),
      new RateLimitedError(new Date()),
    ];
    for (const error of raised) {
      expect(error).toBeInstanceOf(GraphQLError);
      expect(LISTED.has(error.code), `${error.name}: ${error.code}`).toBe(true);
    }
  });
});

describe("maskError", () => {
  const mask = (error: unknown) => {
    const unexpected: unknown[] = [];
    const masked = maskError(error, "Unexpected error.", (e) => unexpected.push(e));
    return { masked, unexpected };
  };

  it("passes an error raised on purpose through, code and all, as graphql-js located it", () => {
    const located = locatedError(new NotFoundError("No such API token."), undefined, ["revoke"]);
    const { masked, unexpected } = mask(located);
    expect(masked).toBe(located);
    expect(masked.toJSON()).toMatchObject({
      message: "No such API token.",
      path: ["revoke"],
      extensions: { code: ERROR_CODES.NOT_FOUND },
    });
    expect(unexpected).toEqual([]);
  });

  it("keeps a ValidationError's field and problems", () => {
    const located = locatedError(new ValidationError("Too long.", "filter.search"), undefined, []);
    expect(mask(located).masked.extensions).toEqual({
      code: ERROR_CODES.BAD_USER_INPUT,
      field: "filter.search",
      problems: [{ field: "filter.search", message: "Too long." }],
    });
  });

  it("masks anything else, whatever it looks like, and reports it", () => {
    const crash = new TypeError("Cannot read properties of undefined (reading 'ciphertext')");
    const lookalike = Object.assign(new Error("db password is hunter2"), {
      extensions: { code: ERROR_CODES.NOT_FOUND },
    });
    for (const error of [crash, lookalike]) {
      for (const seen of [error, locatedError(error, undefined, ["connection"])]) {
        const { masked, unexpected } = mask(seen);
        expect(masked.toJSON()).toEqual({
          message: "Unexpected error.",
          extensions: { code: ERROR_CODES.INTERNAL_SERVER_ERROR },
        });
        expect(unexpected).toEqual([error]);
      }
    }
  });

  it("gives graphql-js's request-level errors BAD_USER_INPUT and a refused global id its field", () => {
    const missingVariable = new GraphQLError(
      'Variable "$id" of required type "ID!" was not provided.',
    );
    expect(mask(missingVariable).masked.extensions).toEqual({ code: ERROR_CODES.BAD_USER_INPUT });
    const refusedId = locatedError(new PothosValidationError("Invalid global ID: x"), undefined, [
      "node",
    ]);
    expect(mask(refusedId).masked.toJSON()).toMatchObject({
      path: ["node"],
      extensions: { code: ERROR_CODES.BAD_USER_INPUT, field: "id" },
    });
  });
});

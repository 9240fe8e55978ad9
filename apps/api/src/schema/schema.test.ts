import { readFileSync } from "node:fs";
import path from "node:path";
import {
  type GraphQLNamedType,
  getNamedType,
  isInterfaceType,
  isObjectType,
  printSchema,
} from "graphql";
import { describe, expect, it } from "vitest";
import { schema } from "./index.ts";

describe("the GraphQL schema", () => {
  it("matches the committed schema.graphql (run `npm run schema:print -w @hyperlens/api`)", () => {
    const committed = readFileSync(path.join(import.meta.dirname, "../../schema.graphql"), "utf8");
    expect(`${printSchema(schema)}\n`).toBe(committed);
  });

  // TRAP: docs/behaviour.md §1 — a field named like a secret is how a credential would leak through the API.
  it("has no output field named like a secret", () => {
    // The intended exceptions: a new API token is shown once, to its creator; a two-factor
    // secret is shown to its user while enrolling, and stored sealed (docs/behaviour.md §12.30);
    // a webhook's signing secret is shown once, on create and rotate (§14.20).
    const allowed = new Set([
      "CreatedApiToken.token",
      "TwoFactorEnrolment.secret",
      "WebhookWithSecret.secret",
    ]);
    const secretLike =
      /secret|password|passwd|ciphertext|credential|hash|private.?key|api.?key|token$/i;
    // A secret would travel as a string, so every String-typed output field is checked.
    const offenders = Object.values(schema.getTypeMap())
      .filter((type: GraphQLNamedType) => !type.name.startsWith("__"))
      .flatMap((type) =>
        isObjectType(type) || isInterfaceType(type)
          ? Object.values(type.getFields())
              .filter((field) => getNamedType(field.type).name === "String")
              .map((field) => `${type.name}.${field.name}`)
          : [],
      )
      .filter((name) => secretLike.test(name.split(".")[1] ?? "") && !allowed.has(name));
    expect(offenders).toEqual([]);
  });
});

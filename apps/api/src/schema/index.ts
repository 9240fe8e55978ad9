// Builds the schema from the domain files; each registers its own types and fields.
import { builder } from "./builder.ts";
import "./errors.ts";
import "./viewer.ts";
import "./auth.ts";
import "./api-token.ts";
import "./user.ts";
import "./connection.ts";

builder.queryType({});
builder.mutationType({});

export const schema = builder.toSchema({ sortSchema: true });

// Writes schema.graphql; the schema test fails until a schema change is printed and committed.
import { writeFileSync } from "node:fs";
import path from "node:path";
import { printSchema } from "graphql";
import { schema } from "../src/schema/index.ts";

writeFileSync(path.join(import.meta.dirname, "../schema.graphql"), `${printSchema(schema)}\n`);
console.log("Wrote apps/api/schema.graphql");

// Rewrites docs/inventory.md's tables from the adapters' field declarations.
import { readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { withInventoryTables } from "../src/sources/inventory-doc.ts";

const file = path.join(import.meta.dirname, "../../../docs/inventory.md");
writeFileSync(file, withInventoryTables(readFileSync(file, "utf8")));
console.log("Wrote docs/inventory.md");

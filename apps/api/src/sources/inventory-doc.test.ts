// docs/inventory.md stays true: its tables are exactly what the adapters declare (and each
// adapter's read test checks its declarations against what it really fills).
import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { withInventoryTables } from "./inventory-doc.ts";

const file = path.join(import.meta.dirname, "../../../../docs/inventory.md");

describe("docs/inventory.md", () => {
  it("holds the tables the adapters declare (npm run docs:inventory rewrites them)", () => {
    const document = readFileSync(file, "utf8");
    expect(withInventoryTables(document)).toBe(document);
  });
});

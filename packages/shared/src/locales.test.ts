import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const dir = path.resolve(import.meta.dirname, "../../../locales");
type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ""): Map<string, string> {
  return new Map(
    Object.entries(tree).flatMap(([key, value]) =>
      typeof value === "string"
        ? [[`${prefix}${key}`, value]]
        : [...flatten(value, `${prefix}${key}.`)],
    ),
  );
}

const load = (file: string) =>
  flatten(JSON.parse(readFileSync(path.join(dir, file), "utf8")) as Tree);
const placeholders = (text: string) => [...text.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe("translations", () => {
  const files = readdirSync(dir).filter((f) => f.endsWith(".json"));
  const english = load("en.json");

  it("come in 14 languages", () => {
    expect(files).toHaveLength(14);
  });

  it.each(files)(
    "%s has exactly the English keys, each translated, with the same placeholders",
    (file) => {
      const strings = load(file);
      expect([...strings.keys()].sort()).toEqual([...english.keys()].sort());
      for (const [key, text] of strings) {
        expect(text.trim(), `${file} ${key}`).not.toBe("");
        expect(placeholders(text), `${file} ${key}`).toEqual(placeholders(english.get(key) ?? ""));
      }
    },
  );
});

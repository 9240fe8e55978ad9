import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { IntlMessageFormat } from "intl-messageformat";
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
type Element = ReturnType<IntlMessageFormat["getAst"]>[number];

/** The arguments a message names, read from its ICU syntax tree: a select's branch text is not one. */
function argumentNames(elements: readonly Element[], into: Set<string>): Set<string> {
  for (const element of elements) {
    if ("value" in element && element.type !== 0 && typeof element.value === "string")
      into.add(element.value);
    if ("options" in element)
      for (const option of Object.values(element.options)) argumentNames(option.value, into);
  }
  return into;
}

const placeholders = (text: string) =>
  [
    ...argumentNames(
      new IntlMessageFormat(text, "en", undefined, { ignoreTag: true }).getAst(),
      new Set(),
    ),
  ].sort();

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

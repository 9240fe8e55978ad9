// A small subset of ICU MessageFormat: `{name}` placeholders and
// `{count, plural, one {# item} other {# items}}`, with categories from Intl.PluralRules so each
// language keeps its own plural forms (Polish few/many, Arabic zero/two) under one key.

/** Values a message can be filled with. */
export type MessageValues = Record<string, string | number>;

interface PluralBlock {
  start: number;
  end: number;
  name: string;
  branches: Map<string, string>;
}

function matchingBrace(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === "{") depth++;
    else if (text[i] === "}" && --depth === 0) return i;
  }
  return -1;
}

function parsePlural(text: string, start: number): PluralBlock | undefined {
  const end = matchingBrace(text, start);
  if (end < 0) return undefined;
  const head = /^\{\s*(\w+)\s*,\s*plural\s*,/.exec(text.slice(start, end));
  if (!head?.[1]) return undefined;
  const branches = new Map<string, string>();
  let i = start + head[0].length;
  while (i < end) {
    const selector = /^\s*(=?\w+)\s*\{/.exec(text.slice(i, end));
    if (!selector?.[1]) break;
    const open = i + selector[0].length - 1;
    const close = matchingBrace(text, open);
    if (close < 0) break;
    branches.set(selector[1], text.slice(open + 1, close));
    i = close + 1;
  }
  return { start, end, name: head[1], branches };
}

/** Fills a message for a locale: plural blocks first, then `{name}` placeholders. */
export function formatMessage(locale: string, text: string, values: MessageValues = {}): string {
  let out = "";
  let i = 0;
  while (i < text.length) {
    const open = text.indexOf("{", i);
    if (open < 0) break;
    const block = parsePlural(text, open);
    if (!block) {
      out += text.slice(i, open + 1);
      i = open + 1;
      continue;
    }
    const raw = values[block.name];
    const count = typeof raw === "number" ? raw : Number(raw ?? 0);
    const category = new Intl.PluralRules(locale).select(count);
    const branch =
      block.branches.get(`=${count}`) ??
      block.branches.get(category) ??
      block.branches.get("other");
    const number = new Intl.NumberFormat(locale).format(count);
    out += text.slice(i, open) + (branch ?? "").replaceAll("#", number);
    i = block.end + 1;
  }
  out += text.slice(i);
  return out.replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = values[name];
    if (value === undefined) return whole;
    return typeof value === "number" ? new Intl.NumberFormat(locale).format(value) : value;
  });
}

// ICU MessageFormat through intl-messageformat: plurals with each language's own categories (Polish
// few/many, Arabic zero/two), `select`, and numbers in the locale's digits and grouping.
import { IntlMessageFormat } from "intl-messageformat";

/** Values a message can be filled with. */
export type MessageValues = Record<string, string | number>;

const compiled = new Map<string, IntlMessageFormat>();

function formatOf(locale: string, text: string): IntlMessageFormat {
  const key = `${locale}\u0000${text}`;
  let format = compiled.get(key);
  if (!format) {
    // Tags stay text: no catalog message is rich text, and "<" in one must not break it.
    format = new IntlMessageFormat(text, locale, undefined, { ignoreTag: true });
    compiled.set(key, format);
  }
  return format;
}

type Element = ReturnType<IntlMessageFormat["getAst"]>[number];

// intl-messageformat's element kinds (TYPE in @formatjs/icu-messageformat-parser).
const LITERAL = 0;
const ARGUMENT = 1;

/** Each argument's name, and whether every use of it is a plain `{name}`. */
function collectArguments(elements: readonly Element[], names: Map<string, boolean>) {
  for (const element of elements) {
    if (element.type !== LITERAL && "value" in element && typeof element.value === "string") {
      names.set(element.value, (names.get(element.value) ?? true) && element.type === ARGUMENT);
    }
    if ("options" in element) {
      for (const option of Object.values(element.options)) collectArguments(option.value, names);
    }
    if ("children" in element) collectArguments(element.children, names);
  }
  return names;
}

function argumentsOf(locale: string, text: string): Map<string, boolean> {
  return collectArguments(formatOf(locale, text).getAst(), new Map());
}

/** The names of the values a message uses, plural and select arguments included. */
export function messageArguments(locale: string, text: string): Set<string> {
  return new Set(argumentsOf(locale, text).keys());
}

/**
 * Fills a message for a locale. A number in a plain `{name}` is written in the locale's digits
 * and grouping, as in a plural's `#`; a value the caller did not give stays visible as `{name}`
 * rather than failing the whole text.
 */
export function formatMessage(locale: string, text: string, values: MessageValues = {}): string {
  const filled: MessageValues = { ...values };
  for (const [name, isPlain] of argumentsOf(locale, text)) {
    const value = filled[name];
    if (value === undefined) filled[name] = `{${name}}`;
    else if (isPlain && typeof value === "number") {
      filled[name] = new Intl.NumberFormat(locale).format(value);
    }
  }
  return String(formatOf(locale, text).format(filled));
}

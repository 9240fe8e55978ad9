// Picks the translation for the browser's language; English when there is none.
import cs from "../../../locales/cs.json";
import de from "../../../locales/de.json";
import en from "../../../locales/en.json";
import es from "../../../locales/es.json";
import fr from "../../../locales/fr.json";
import it from "../../../locales/it.json";
import ja from "../../../locales/ja.json";
import ko from "../../../locales/ko.json";
import nl from "../../../locales/nl.json";
import pl from "../../../locales/pl.json";
import pt from "../../../locales/pt.json";
import sv from "../../../locales/sv.json";
import uk from "../../../locales/uk.json";
import zh from "../../../locales/zh.json";

type Messages = typeof en;
const CATALOGS: Record<string, Messages> = {
  cs,
  de,
  en,
  es,
  fr,
  it,
  ja,
  ko,
  nl,
  pl,
  pt,
  sv,
  uk,
  zh,
};

type Leaves<T, P extends string = ""> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>;
}[keyof T & string];

/** A key of the English catalog, e.g. "app.title". */
export type MessageKey = Leaves<Messages>;

function lookup(catalog: unknown, key: string): string | undefined {
  const value = key
    .split(".")
    .reduce<unknown>((node, part) => (node as Record<string, unknown>)?.[part], catalog);
  return typeof value === "string" ? value : undefined;
}

const language = (globalThis.navigator?.language ?? "en").slice(0, 2);
const catalog = CATALOGS[language] ?? en;

/** Translates a key, filling `{name}` placeholders. */
export function t(key: MessageKey, values: Record<string, string> = {}): string {
  const text = lookup(catalog, key) ?? lookup(en, key) ?? key;
  return text.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? `{${name}}`);
}

// The current language and its catalog. English is bundled; other catalogs load on demand so the
// first render does not pay for thirteen languages it will not show.
import { useSyncExternalStore } from "react";
import en from "../../../../locales/en.json";
import { directionOf, isLanguageTag, type LanguageTag, pickLanguage } from "./languages.ts";
import { formatMessage, type MessageValues } from "./message-format.ts";

type Messages = typeof en;
type Tree = { [key: string]: string | Tree };

type Leaves<T, P extends string = ""> = {
  [K in keyof T & string]: T[K] extends string ? `${P}${K}` : Leaves<T[K], `${P}${K}.`>;
}[keyof T & string];

/** A key of the English catalog, e.g. "app.title". */
export type MessageKey = Leaves<Messages>;

const loaders = import.meta.glob<Tree>(["../../../../locales/*.json", "!**/en.json"], {
  import: "default",
});
const STORAGE_KEY = "hyperlens.language";

let language: LanguageTag = "en";
let latestRequest = 0;
let catalog: Tree = en;
const listeners = new Set<() => void>();

function lookup(tree: Tree, key: string): string | undefined {
  let node: string | Tree | undefined = tree;
  for (const part of key.split(".")) {
    if (typeof node !== "object") return undefined;
    node = node[part];
  }
  return typeof node === "string" ? node : undefined;
}

/** Translates a key for the current language, filling placeholders and plurals. */
export function t(key: MessageKey, values: MessageValues = {}): string {
  const text = lookup(catalog, key) ?? lookup(en, key) ?? key;
  return formatMessage(language, text, values);
}

/** True when the English catalog has the key: for keys built from what the API sends. */
export function hasMessage(key: string): key is MessageKey {
  return lookup(en, key) !== undefined;
}

/** The current language tag (also the Intl locale). */
export function currentLanguage(): LanguageTag {
  return language;
}

/** Switches the language, loading its catalog, and updates `<html lang dir>`. */
export async function setLanguage(tag: LanguageTag): Promise<void> {
  const request = ++latestRequest;
  const load = loaders[`../../../../locales/${tag}.json`];
  const loaded = tag === "en" || !load ? en : await load();
  // A slower load of an earlier choice must not overwrite a later one.
  if (request !== latestRequest) return;
  catalog = loaded;
  language = tag;
  globalThis.localStorage?.setItem(STORAGE_KEY, tag);
  if (typeof document !== "undefined") {
    document.documentElement.lang = tag;
    document.documentElement.dir = directionOf(tag);
  }
  for (const listener of listeners) listener();
}

/** The language saved by the picker, else the browser's preference. */
export function initialLanguage(): LanguageTag {
  const saved = globalThis.localStorage?.getItem(STORAGE_KEY) ?? "";
  if (isLanguageTag(saved)) return saved;
  return pickLanguage(globalThis.navigator?.languages ?? ["en"]);
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Re-renders the caller when the language changes; returns the current tag. */
export function useLanguage(): LanguageTag {
  return useSyncExternalStore(subscribe, currentLanguage, currentLanguage);
}

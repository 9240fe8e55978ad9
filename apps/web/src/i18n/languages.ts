/** The languages Hyperlens speaks, by BCP 47 tag, with their own names for the picker. */
export const LANGUAGES = [
  { tag: "en", name: "English" },
  { tag: "de", name: "Deutsch" },
  { tag: "fr", name: "Français" },
  { tag: "es", name: "Español" },
  { tag: "it", name: "Italiano" },
  { tag: "nl", name: "Nederlands" },
  { tag: "pt-BR", name: "Português (Brasil)" },
  { tag: "pl", name: "Polski" },
  { tag: "cs", name: "Čeština" },
  { tag: "sv", name: "Svenska" },
  { tag: "ja", name: "日本語" },
  { tag: "zh-CN", name: "简体中文" },
  { tag: "ko", name: "한국어" },
  { tag: "ar", name: "العربية" },
] as const;

/** One supported language tag. */
export type LanguageTag = (typeof LANGUAGES)[number]["tag"];

const RIGHT_TO_LEFT: ReadonlySet<string> = new Set(["ar"]);

/** The text direction of a language. */
export function directionOf(tag: LanguageTag): "rtl" | "ltr" {
  return RIGHT_TO_LEFT.has(tag) ? "rtl" : "ltr";
}

/** True when the string is a supported tag. */
export function isLanguageTag(value: string): value is LanguageTag {
  return LANGUAGES.some((language) => language.tag === value);
}

/**
 * The best supported language for a browser's preference list: an exact tag first, then the
 * same base language ("pt-PT" → "pt-BR", "zh-TW" → "zh-CN"), else English.
 */
export function pickLanguage(preferred: readonly string[]): LanguageTag {
  for (const wanted of preferred) {
    const exact = LANGUAGES.find((l) => l.tag.toLowerCase() === wanted.toLowerCase());
    if (exact) return exact.tag;
    const base = wanted.split("-")[0]?.toLowerCase();
    const sameBase = LANGUAGES.find((l) => l.tag.split("-")[0]?.toLowerCase() === base);
    if (sameBase) return sameBase.tag;
  }
  return "en";
}

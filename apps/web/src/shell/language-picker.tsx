import { setLanguage, t, useLanguage } from "../i18n/i18n.ts";
import { isLanguageTag, LANGUAGES } from "../i18n/languages.ts";

/** Chooses the interface language; remembered in this browser. */
export function LanguagePicker() {
  const language = useLanguage();
  return (
    <label className="picker">
      <span className="visually-hidden">{t("shell.language")}</span>
      <select
        aria-label={t("shell.language")}
        value={language}
        onChange={(e) => {
          if (isLanguageTag(e.target.value)) void setLanguage(e.target.value);
        }}
      >
        {LANGUAGES.map((l) => (
          <option key={l.tag} value={l.tag} lang={l.tag}>
            {l.name}
          </option>
        ))}
      </select>
    </label>
  );
}

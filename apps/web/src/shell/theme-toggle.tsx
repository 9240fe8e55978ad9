import { t } from "../i18n/i18n.ts";
import { nextTheme, setTheme, type ThemeChoice, useTheme } from "../theme/theme.ts";

const LABEL = {
  system: "shell.theme.system",
  light: "shell.theme.light",
  dark: "shell.theme.dark",
} as const satisfies Record<ThemeChoice, string>;

/** Cycles the theme: system → light → dark. */
export function ThemeToggle() {
  const theme = useTheme();
  return (
    <button
      type="button"
      className="theme-toggle"
      title={t("shell.theme.label")}
      onClick={() => setTheme(nextTheme(theme))}
    >
      {t(LABEL[theme])}
    </button>
  );
}

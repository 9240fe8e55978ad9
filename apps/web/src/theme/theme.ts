// Light, dark, or the system's choice; the toggle's choice is remembered per browser.
import { useSyncExternalStore } from "react";

/** What the theme toggle offers. */
export type ThemeChoice = "system" | "light" | "dark";

const STORAGE_KEY = "hyperlens.theme";
const ORDER: readonly ThemeChoice[] = ["system", "light", "dark"];
const listeners = new Set<() => void>();

function read(): ThemeChoice {
  const saved = globalThis.localStorage?.getItem(STORAGE_KEY);
  return ORDER.find((c) => c === saved) ?? "system";
}

/** Applies a choice to `<html data-theme>`; "system" removes it so the media query decides. */
export function applyTheme(choice: ThemeChoice = read()) {
  if (choice === "system") delete document.documentElement.dataset.theme;
  else document.documentElement.dataset.theme = choice;
}

/** The choice after this one: system → light → dark → system. */
export function nextTheme(choice: ThemeChoice): ThemeChoice {
  return ORDER[(ORDER.indexOf(choice) + 1) % ORDER.length] ?? "system";
}

/** Saves and applies a choice. */
export function setTheme(choice: ThemeChoice) {
  globalThis.localStorage?.setItem(STORAGE_KEY, choice);
  applyTheme(choice);
  for (const listener of listeners) listener();
}

/** The current choice; re-renders when it changes. */
export function useTheme(): ThemeChoice {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    read,
    () => "system",
  );
}

import { useEffect } from "react";

/**
 * Escape closes the open `details.menu` (the one holding focus first) and puts focus on its
 * summary; the key then does nothing else, so a drawer behind the menu stays open
 * (docs/behaviour.md §9.49).
 */
export function useEscapeClosesMenus() {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || event.defaultPrevented) return;
      const open = [...document.querySelectorAll<HTMLDetailsElement>("details.menu[open]")];
      const focused = document.activeElement;
      const menu = open.find((m) => focused && m.contains(focused)) ?? open[open.length - 1];
      if (!menu) return;
      event.preventDefault();
      menu.open = false;
      menu.querySelector("summary")?.focus();
    };
    // Capture: before the drawer's own Escape handler on window sees the key.
    document.addEventListener("keydown", onKey, true);
    return () => document.removeEventListener("keydown", onKey, true);
  }, []);
}

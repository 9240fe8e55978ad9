import { useEffect } from "react";

/** True when a key typed here is text for a field, not a shortcut. */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof HTMLElement)) return false;
  return (
    target.isContentEditable ||
    target instanceof HTMLTextAreaElement ||
    target instanceof HTMLSelectElement ||
    (target instanceof HTMLInputElement && !["checkbox", "radio", "button"].includes(target.type))
  );
}

/**
 * `/` focuses the page's search field (the first `input[type=search]` under `scope`), unless a
 * field has the keyboard or a modal dialog is open (docs/behaviour.md §9.49).
 */
export function useSlashFocusesSearch(scope: string) {
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "/" || event.ctrlKey || event.metaKey || event.altKey) return;
      if (event.defaultPrevented || isTypingTarget(event.target)) return;
      if (document.querySelector('[role="dialog"][aria-modal="true"]')) return;
      const search = document.querySelector<HTMLInputElement>(`${scope} input[type="search"]`);
      if (!search) return;
      event.preventDefault();
      search.focus();
      search.select();
    };
    document.addEventListener("keydown", onKey);
    return () => document.removeEventListener("keydown", onKey);
  }, [scope]);
}

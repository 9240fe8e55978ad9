// Keeps Tab inside a modal panel and, once it closes, gives focus back to what had it
// (docs/behaviour.md §9.49).

const FOCUSABLE =
  'a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled]), summary, [tabindex]:not([tabindex="-1"])';

/** The elements Tab reaches inside `container`, in document order. */
export function tabbableIn(container: Element): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (element) => !element.closest("[inert]") && element.getClientRects().length > 0,
  );
}

/**
 * Where Tab must send focus so it stays inside a panel of `count` tabbable elements, given the
 * index of the focused one (-1: the panel itself or outside it); null when the browser's own move
 * already stays inside.
 */
export function wrappedIndex(count: number, current: number, isBackward: boolean): number | null {
  if (count === 0) return null;
  if (isBackward) return current <= 0 ? count - 1 : null;
  return current === -1 || current === count - 1 ? 0 : null;
}

/** The element Tab (or Shift+Tab) should move to so focus stays inside `container`, or null. */
export function wrappedFocusTarget(
  container: HTMLElement,
  active: Element | null,
  isBackward: boolean,
): HTMLElement | null {
  const tabbable = tabbableIn(container);
  if (tabbable.length === 0) return container;
  const index = wrappedIndex(tabbable.length, tabbable.indexOf(active as HTMLElement), isBackward);
  return index === null ? null : (tabbable[index] ?? null);
}

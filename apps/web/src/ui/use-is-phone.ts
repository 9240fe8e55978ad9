// The one width at which the app switches to its phone layout; app.css uses the same query.
import { useSyncExternalStore } from "react";

/** The media query of the phone layout (docs/behaviour.md §9.54); keep in step with app.css. */
export const PHONE_QUERY = "(max-width: 40rem)";

function subscribe(listener: () => void) {
  const query = window.matchMedia(PHONE_QUERY);
  query.addEventListener("change", listener);
  return () => query.removeEventListener("change", listener);
}

/** True while the window is phone-narrow; re-renders when that changes. */
export function useIsPhone(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => window.matchMedia(PHONE_QUERY).matches,
    () => false,
  );
}

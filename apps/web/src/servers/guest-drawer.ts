// The detail drawer's guest lives in the address as `vm=<global id>` (docs/behaviour.md §9.48):
// a link opens the drawer, closing it takes the parameter away, and Back closes it.
import { useCallback, useEffect, useRef } from "react";
import { navigate } from "../shell/router.ts";
import { serversPath } from "./servers-path.ts";

/** The parameter naming the guest whose drawer is open. */
export const GUEST_PARAM = "vm";

/** The Servers page's address with the drawer open on `id`, or closed when `id` is undefined. */
export function serversPathWithGuest(search: string, id: string | undefined): string {
  const params = new URLSearchParams(search);
  if (id === undefined) params.delete(GUEST_PARAM);
  else params.set(GUEST_PARAM, id);
  return serversPath(params.toString());
}

/** The open guest's id from the address, and opening and closing it through the history. */
export function useGuestDrawer(params: URLSearchParams) {
  const id = params.get(GUEST_PARAM) || undefined;
  // Set when this page pushed the entry that opened the drawer: closing then goes back to the
  // entry before, so Back after Close does not open it again.
  const pushed = useRef(false);
  const names = useRef(new Map<string, string>());
  useEffect(() => {
    if (id === undefined) pushed.current = false;
  }, [id]);

  const open = useCallback((row: { id: string; name: string }) => {
    names.current.set(row.id, row.name);
    pushed.current = true;
    navigate(serversPathWithGuest(window.location.search, row.id));
  }, []);

  const close = useCallback(() => {
    if (pushed.current) {
      pushed.current = false;
      window.history.back();
    } else {
      navigate(serversPathWithGuest(window.location.search, undefined), { replace: true });
    }
  }, []);

  return { id, name: id === undefined ? undefined : names.current.get(id), open, close };
}

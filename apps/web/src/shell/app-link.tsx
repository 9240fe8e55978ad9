import type { ReactNode } from "react";
import { navigate } from "./router.ts";

/**
 * A link inside the app: followed without a reload, yet a modified click (new tab, new window)
 * and the link's address stay the browser's.
 */
export function AppLink(props: {
  href: string;
  children: ReactNode;
  "aria-current"?: "page" | undefined;
}) {
  return (
    <a
      href={props.href}
      aria-current={props["aria-current"]}
      onClick={(event) => {
        if (event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey)
          return;
        event.preventDefault();
        navigate(props.href);
      }}
    >
      {props.children}
    </a>
  );
}

// Values that may not fit: isolated from the page's direction, cut at their own end, and shown in
// full on hover and on keyboard focus (docs/behaviour.md §9.53).
import { type ReactNode, type RefObject, useLayoutEffect, useRef, useState } from "react";

/**
 * How a value runs: "ltr" for what is always written left to right (addresses, MACs, paths, ids),
 * "auto" for names, which follow their first strong letter.
 */
export type ValueDirection = "ltr" | "auto";

/**
 * A value isolated from the text around it, so `::1/128` stays `::1/128` in an Arabic page.
 * TRAP: §9.53 — without the isolation the bidi algorithm moves the colons and slash to the other end.
 */
export function Isolated(props: { dir?: ValueDirection; className?: string; children: ReactNode }) {
  return (
    <bdi dir={props.dir ?? "ltr"} className={props.className}>
      {props.children}
    </bdi>
  );
}

/**
 * One line of a table cell that ends in "…" when it does not fit, at the value's own end in either
 * page direction. Its title holds the full value for the mouse; when cut it takes keyboard focus,
 * and the focused value wraps to show itself whole (the `.cut:focus` rule in app.css).
 */
export function CutText(props: { text: string; dir?: ValueDirection; className?: string }) {
  const element = useRef<HTMLElement>(null);
  const isCut = useIsCut(element, props.text);
  return (
    <bdi
      ref={element}
      dir={props.dir ?? "auto"}
      className={props.className ? `cut ${props.className}` : "cut"}
      title={props.text}
      // A cut value must be reachable without a mouse (WCAG 2.1.1); a whole one adds no tab stop.
      tabIndex={isCut ? 0 : undefined}
    >
      {props.text}
    </bdi>
  );
}

/** Whether the element's text overflows it, kept while it has focus (its focused style unwraps it). */
function useIsCut(element: RefObject<HTMLElement | null>, text: string): boolean {
  const [isCut, setCut] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new text needs a new measure
  useLayoutEffect(() => {
    const node = element.current;
    if (!node) return;
    const measure = () => {
      if (document.activeElement === node) return;
      setCut(node.scrollWidth > node.clientWidth);
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(node);
    return () => observer.disconnect();
  }, [text]);
  return isCut;
}

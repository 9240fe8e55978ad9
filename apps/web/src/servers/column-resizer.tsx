import { type KeyboardEvent, type PointerEvent, useLayoutEffect, useRef, useState } from "react";
import { clampWidth, MAX_WIDTH, MIN_WIDTH } from "./local-prefs.ts";

/** Pixels one arrow key press widens or narrows a column by. */
export const KEY_STEP = 16;

/**
 * The handle at a column header's end edge: dragged with a pointer, or focused and moved with the
 * arrow keys (docs/behaviour.md §9.46). It reports the column's new width in pixels.
 */
export function ColumnResizer(props: {
  label: string;
  width: number | undefined;
  onResize: (width: number) => void;
}) {
  const handle = useRef<HTMLSpanElement>(null);
  // A focusable separator must say where it is: the header's drawn width until one is chosen.
  const [measured, setMeasured] = useState(MIN_WIDTH);
  useLayoutEffect(() => {
    const header = handle.current?.parentElement;
    if (props.width !== undefined || !header) return;
    setMeasured(Math.round(header.getBoundingClientRect().width));
  });
  const drawnWidth = () =>
    props.width ?? handle.current?.parentElement?.getBoundingClientRect().width ?? MIN_WIDTH;
  // In a right-to-left page the end edge is on the left: moving left widens.
  const direction = () => (handle.current?.closest("[dir=rtl]") ? -1 : 1);

  const onPointerDown = (event: PointerEvent<HTMLSpanElement>) => {
    event.preventDefault();
    event.stopPropagation();
    const element = event.currentTarget;
    const startX = event.clientX;
    const startWidth = drawnWidth();
    const sign = direction();
    element.setPointerCapture(event.pointerId);
    const move = (e: globalThis.PointerEvent) =>
      props.onResize(clampWidth(startWidth + sign * (e.clientX - startX)));
    const stop = () => {
      element.removeEventListener("pointermove", move);
      element.removeEventListener("pointerup", stop);
      element.removeEventListener("pointercancel", stop);
    };
    element.addEventListener("pointermove", move);
    element.addEventListener("pointerup", stop);
    element.addEventListener("pointercancel", stop);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLSpanElement>) => {
    const step = { ArrowRight: KEY_STEP, ArrowLeft: -KEY_STEP }[event.key];
    if (step === undefined) return;
    event.preventDefault();
    props.onResize(clampWidth(drawnWidth() + direction() * step));
  };

  const width = Math.round(props.width ?? measured);
  return (
    // biome-ignore lint/a11y/useSemanticElements: a focusable separator is ARIA's splitter; <hr> cannot take focus or a value
    <span
      ref={handle}
      role="separator"
      aria-orientation="vertical"
      aria-label={props.label}
      aria-valuenow={width}
      aria-valuemin={MIN_WIDTH}
      aria-valuemax={MAX_WIDTH}
      tabIndex={0}
      className="column-resizer"
      onPointerDown={onPointerDown}
      onKeyDown={onKeyDown}
      onClick={(event) => event.stopPropagation()}
      draggable={false}
    />
  );
}

// What the Servers page remembers in this browser only (docs/behaviour.md §9.46): column widths,
// dense rows and whether the figures show in full. Unlike the URL's layout these follow the
// screen, not the link.
import { useCallback, useState } from "react";
import { COLUMNS, type ColumnId } from "./columns.ts";

/** A column is never narrower than this, nor wider than MAX_WIDTH (pixels). */
export const MIN_WIDTH = 48;
export const MAX_WIDTH = 960;

/** Chosen widths in pixels, by column. */
export type ColumnWidths = Partial<Record<ColumnId, number>>;

/** A width clamped to what a column may be. */
export function clampWidth(width: number): number {
  return Math.round(Math.min(MAX_WIDTH, Math.max(MIN_WIDTH, width)));
}

/** Widths read back from storage; anything malformed is dropped. */
export function parseWidths(saved: string | null): ColumnWidths {
  let parsed: unknown;
  try {
    parsed = JSON.parse(saved ?? "{}");
  } catch {
    return {};
  }
  if (typeof parsed !== "object" || parsed === null) return {};
  const widths: ColumnWidths = {};
  for (const column of COLUMNS) {
    const value = (parsed as Record<string, unknown>)[column.id];
    if (typeof value === "number" && Number.isFinite(value)) widths[column.id] = clampWidth(value);
  }
  return widths;
}

/** The CSS grid track of each column: its chosen width, else its default. */
export function columnTemplate(columns: readonly ColumnId[], widths: ColumnWidths): string {
  return columns
    .map((id) => {
      const width = widths[id];
      return width === undefined
        ? (COLUMNS.find((c) => c.id === id)?.width ?? "auto")
        : `${width}px`;
    })
    .join(" ");
}

interface Stored<T> {
  key: string;
  parse: (saved: string | null) => T;
  write: (value: T) => string;
}

export const WIDTHS: Stored<ColumnWidths> = {
  key: "hyperlens.columnWidths",
  parse: parseWidths,
  write: (widths) => JSON.stringify(widths),
};

export const DENSE: Stored<boolean> = {
  key: "hyperlens.denseRows",
  parse: (saved) => saved === "1",
  write: (isDense) => (isDense ? "1" : "0"),
};

export const FIGURES_EXPANDED: Stored<boolean> = {
  key: "hyperlens.figuresExpanded",
  parse: (saved) => saved === "1",
  write: (isExpanded) => (isExpanded ? "1" : "0"),
};

/** A value kept in this browser's storage: read once, written on every change. */
export function useRemembered<T>(stored: Stored<T>): [T, (value: T) => void] {
  const [value, setValue] = useState(() =>
    stored.parse(globalThis.localStorage?.getItem(stored.key) ?? null),
  );
  const remember = useCallback(
    (next: T) => {
      setValue(next);
      globalThis.localStorage?.setItem(stored.key, stored.write(next));
    },
    [stored],
  );
  return [value, remember];
}

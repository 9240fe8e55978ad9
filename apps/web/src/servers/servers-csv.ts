// The Servers CSV: every column of the table as raw values, plus the guest's kind, and its file name.
import { COLUMNS } from "./columns.ts";
import { buildCsv } from "./csv.ts";
import type { VmRow } from "./vm-row.ts";

/** VM, CONTAINER or TEMPLATE: what the table tells by the name's "container" and the template filter. */
function kindOf(row: Pick<VmRow, "kind" | "isTemplate">): string {
  return row.isTemplate ? "TEMPLATE" : row.kind;
}

/** The CSV of these rows: the table's columns, with the kind after the name. */
export function serversCsv(rows: readonly VmRow[]): string {
  const header = COLUMNS.flatMap((c) => (c.id === "name" ? [c.id, "kind"] : [c.id]));
  return buildCsv(
    header,
    rows.map((row) =>
      COLUMNS.flatMap((c) =>
        c.id === "name" ? [c.csvValue(row), kindOf(row)] : [c.csvValue(row)],
      ),
    ),
  );
}

/** The file name: a filtered export says so, so it is not taken for the whole inventory. */
export function csvFileName(isFiltered: boolean, now: Date): string {
  const date = now.toISOString().slice(0, 10);
  return isFiltered ? `hyperlens-servers-filtered-${date}.csv` : `hyperlens-servers-${date}.csv`;
}

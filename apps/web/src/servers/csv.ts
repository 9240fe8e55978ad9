// CSV for spreadsheets. Cells that start like a formula are prefixed with an apostrophe so a VM
// named "=HYPERLINK(…)" cannot run as a formula when the file is opened.

const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV cell: quoted when needed, formula-neutralised, empty for null. */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return String(value);
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** A CSV document (RFC 4180, CRLF line ends) from a header and rows. */
export function buildCsv(
  header: readonly string[],
  rows: readonly (readonly (string | number | null)[])[],
): string {
  return `${[header, ...rows].map((row) => row.map(csvCell).join(",")).join("\r\n")}\r\n`;
}

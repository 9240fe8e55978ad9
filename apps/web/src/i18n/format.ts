// Numbers, sizes and dates in the reader's language, through Intl.

const UNITS = ["byte", "kilobyte", "megabyte", "gigabyte", "terabyte", "petabyte"] as const;

/** A byte count in binary steps (1 GiB shown as "1 GB", as hypervisor consoles do). */
export function formatBytes(locale: string, bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined || !Number.isFinite(bytes)) return "—";
  let value = bytes;
  let unit = 0;
  while (Math.abs(value) >= 1024 && unit < UNITS.length - 1) {
    value /= 1024;
    unit++;
  }
  return new Intl.NumberFormat(locale, {
    style: "unit",
    unit: UNITS[unit],
    unitDisplay: "short",
    maximumFractionDigits: value < 10 && unit > 0 ? 1 : 0,
  }).format(value);
}

/** A whole number, or a dash when unknown. */
export function formatCount(locale: string, value: number | null | undefined): string {
  return value === null || value === undefined ? "—" : new Intl.NumberFormat(locale).format(value);
}

/** A date and time, short. */
export function formatDateTime(locale: string, iso: string | null | undefined): string {
  if (!iso) return "—";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "—";
  return new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "short" }).format(date);
}

const STEPS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["second", 60],
  ["minute", 60],
  ["hour", 24],
  ["day", 30],
  ["month", 12],
  ["year", Number.POSITIVE_INFINITY],
];

/** "3 minutes ago", "in 2 hours", relative to `now`. */
export function formatRelative(locale: string, iso: string | null | undefined, now = Date.now()) {
  if (!iso) return "—";
  let value = (new Date(iso).getTime() - now) / 1000;
  if (Number.isNaN(value)) return "—";
  const format = new Intl.RelativeTimeFormat(locale, { numeric: "auto" });
  for (const [unit, size] of STEPS) {
    if (Math.abs(value) < size) return format.format(Math.round(value), unit);
    value /= size;
  }
  return format.format(Math.round(value), "year");
}

/** A date and time to the second, for logs where attempts follow each other closely. */
export function formatDateTimeSeconds(locale: string, iso: string | null | undefined): string {
  if (!iso) return "—";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "—";
  return new Intl.DateTimeFormat(locale, { dateStyle: "medium", timeStyle: "medium" }).format(date);
}

/** A duration in milliseconds, e.g. "42 ms". */
export function formatMilliseconds(locale: string, ms: number): string {
  return new Intl.NumberFormat(locale, {
    style: "unit",
    unit: "millisecond",
    unitDisplay: "short",
  }).format(ms);
}

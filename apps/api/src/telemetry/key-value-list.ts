// The `name=value,name=value` lists of the OpenTelemetry environment variables
// (OTEL_RESOURCE_ATTRIBUTES, OTEL_EXPORTER_OTLP_HEADERS): values percent-encoded, blanks ignored.

/** Parses a list; null when any entry is not `name=value` or a value is not valid percent-encoding. */
export function parseKeyValueList(text: string): Record<string, string> | null {
  const entries: Record<string, string> = {};
  for (const item of text.split(",")) {
    if (item.trim() === "") continue;
    const at = item.indexOf("=");
    if (at <= 0) return null;
    const key = item.slice(0, at).trim();
    if (key === "") return null;
    try {
      entries[key] = decodeURIComponent(item.slice(at + 1).trim());
    } catch {
      return null;
    }
  }
  return entries;
}

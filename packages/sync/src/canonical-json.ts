// Canonical JSON: object keys sorted, undefined dropped, so equal records hash equally whatever
// order the source produced their keys in.

/** JSON text of a value with object keys sorted and undefined members dropped. */
export function canonicalJson(value: unknown): string {
  if (value === null || typeof value !== "object") {
    return JSON.stringify(value) ?? "null";
  }
  if (Array.isArray(value)) {
    return `[${value.map((item) => (item === undefined ? "null" : canonicalJson(item))).join(",")}]`;
  }
  const entries = Object.keys(value)
    .sort()
    .flatMap((key) => {
      const member = (value as Record<string, unknown>)[key];
      return member === undefined ? [] : [`${JSON.stringify(key)}:${canonicalJson(member)}`];
    });
  return `{${entries.join(",")}}`;
}

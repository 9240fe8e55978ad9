/**
 * Whether an HTTP `Link` header (CloudAPI pagination) has a `rel="nextPage"` entry, e.g.
 * `<https://h/cloudapi/1.0.0/edgeGateways?page=2>;rel="nextPage";type="application/json"`.
 * Several links may come in one header, comma-separated, or as repeated headers.
 */
export function hasNextPageLink(header: string | string[] | undefined): boolean {
  const values = header === undefined ? [] : Array.isArray(header) ? header : [header];
  return values.some((value) =>
    splitLinks(value).some((link) => /;\s*rel\s*=\s*"?nextPage"?\s*(?:;|$)/i.test(link)),
  );
}

// Commas inside <…> (query strings) do not separate links.
function splitLinks(value: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value[i];
    if (c === "<") depth++;
    else if (c === ">") depth = Math.max(0, depth - 1);
    else if (c === "," && depth === 0) {
      out.push(value.slice(start, i));
      start = i + 1;
    }
  }
  out.push(value.slice(start));
  return out;
}

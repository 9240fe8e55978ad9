/** An XML element with namespaces resolved, as a client parsing by local name sees it. */
export interface XmlElement {
  /** Name as written, prefix included. */
  qname: string;
  local: string;
  /** Namespace URI ("" when none). */
  ns: string;
  /** Attributes by qualified name as written (namespace declarations excluded). */
  attrs: Record<string, string>;
  /** Attributes by `{uri}local` (`local` alone for unqualified ones). */
  nsAttrs: Record<string, string>;
  children: XmlElement[];
  text: string;
}

const ENTITIES: Record<string, string> = { amp: "&", lt: "<", gt: ">", quot: '"', apos: "'" };

function decode(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => ENTITIES[name] ?? "");
}

/**
 * A small namespace-aware XML reader for tests (well-formed input only; no DTDs, CDATA or
 * comments), so the stand-in's answers can be checked without a dependency.
 */
export function parseXml(source: string): XmlElement {
  const tokens = source
    .replace(/<\?[^?]*\?>/g, "")
    .matchAll(/<(\/?)([^\s/>]+)([^>]*?)(\/?)>|([^<]+)/g);
  const stack: Array<{ element: XmlElement; scope: Map<string, string> }> = [];
  let root: XmlElement | undefined;
  for (const token of tokens) {
    const [, closing, name, rawAttrs, selfClosing, text] = token;
    const top = stack[stack.length - 1];
    if (text !== undefined) {
      if (top) top.element.text += decode(text);
      continue;
    }
    if (closing) {
      const popped = stack.pop();
      if (popped?.element.qname !== name) throw new Error(`mismatched </${name}>`);
      continue;
    }
    const scope = new Map(top?.scope ?? []);
    const written: Array<[string, string]> = [];
    for (const match of (rawAttrs ?? "").matchAll(/([^\s=]+)\s*=\s*"([^"]*)"/g)) {
      const [, key = "", value = ""] = match;
      if (key === "xmlns") scope.set("", decode(value));
      else if (key.startsWith("xmlns:")) scope.set(key.slice(6), decode(value));
      else written.push([key, decode(value)]);
    }
    const resolve = (qname: string, isAttribute: boolean) => {
      const colon = qname.indexOf(":");
      if (colon < 0) return { ns: isAttribute ? "" : (scope.get("") ?? ""), local: qname };
      const prefix = qname.slice(0, colon);
      const ns = scope.get(prefix);
      if (ns === undefined) throw new Error(`undeclared prefix ${prefix} in ${qname}`);
      return { ns, local: qname.slice(colon + 1) };
    };
    const { ns, local } = resolve(name ?? "", false);
    const element: XmlElement = {
      qname: name ?? "",
      local,
      ns,
      attrs: Object.fromEntries(written),
      nsAttrs: Object.fromEntries(
        written.map(([key, value]) => {
          const resolved = resolve(key, true);
          return [resolved.ns ? `{${resolved.ns}}${resolved.local}` : resolved.local, value];
        }),
      ),
      children: [],
      text: "",
    };
    if (top) top.element.children.push(element);
    else root = element;
    if (!selfClosing) stack.push({ element, scope });
  }
  if (!root || stack.length > 0) throw new Error("incomplete XML document");
  return root;
}

/** Children with a local name. */
export function childrenNamed(element: XmlElement, local: string): XmlElement[] {
  return element.children.filter((child) => child.local === local);
}

/** Text of the first child with a local name. */
export function childText(element: XmlElement, local: string): string | undefined {
  return childrenNamed(element, local)[0]?.text;
}

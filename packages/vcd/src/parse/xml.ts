// XML of the legacy /api endpoints, read by local name (docs/behaviour.md §4): Director's namespace prefixes
// are arbitrary (`vcloud:capacity` in one answer, `ns13:capacity` in another) and provider and
// tenant answers declare different ones.
import { XMLParser, XMLValidator } from "fast-xml-parser";
import { malformed } from "./malformed.ts";

/** Attribute keys carry this prefix in parsed objects: `<VMRecord name="x">` → `{ "@name": "x" }`. */
export const ATTR = "@";

/** Elements that may repeat; always arrays, so one VM or one NIC is not read as an object. */
const REPEATED = new Set([
  "AdminVMRecord",
  "VMRecord",
  "EdgeGatewayRecord",
  "AdminEdgeGatewayRecord",
  "Link",
  "NetworkConnection",
  "SecondaryIpAddress",
  "Item",
  "VersionInfo",
]);

const ENTITY = /&(lt|gt|amp|quot|apos|#\d{1,7}|#x[0-9a-fA-F]{1,6});/g;
const NAMED: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };

/** Decodes the five predefined XML entities and character references; nothing else is expanded. */
function decodeXml(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(ENTITY, (whole, name: string) => {
    const named = NAMED[name];
    if (named !== undefined) return named;
    const code = name.startsWith("#x") ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
    return code <= 0x10ffff ? String.fromCodePoint(code) : whole;
  });
}

// TRAP: docs/behaviour.md §2 — processEntities off: a DOCTYPE's own entities (billion laughs, external files)
// are never expanded; only the predefined ones are decoded above, so "R&amp;D" still reads "R&D".
const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: ATTR,
  removeNSPrefix: true,
  processEntities: false,
  htmlEntities: false,
  parseTagValue: false,
  parseAttributeValue: false,
  ignoreDeclaration: true,
  ignorePiTags: true,
  trimValues: true,
  isArray: (name, _path, _leaf, isAttribute) => !isAttribute && REPEATED.has(name),
  tagValueProcessor: (_name, value) => decodeXml(value),
  attributeValueProcessor: (_name, value) => decodeXml(value),
});

/**
 * Parses a Director XML answer and returns its root element, which must be `rootName` (local
 * name). Invalid XML — a truncated body included — is `malformed`, never a partial document:
 * a half-read page would silently drop VMs.
 */
export function parseXmlRoot(text: string, rootName: string, call: string): unknown {
  // TRAP: docs/behaviour.md §4 — a truncated body parses "fine" without validation and loses its last records.
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    throw malformed(call, `not well-formed XML: ${valid.err.msg} at line ${valid.err.line}`);
  }
  const doc: unknown = parser.parse(text);
  const root = isRecord(doc) ? doc[rootName] : undefined;
  if (root === undefined) {
    const found = isRecord(doc) ? Object.keys(doc).join(", ") : "nothing";
    throw malformed(call, `expected a <${rootName}> document, got ${found || "an empty one"}`);
  }
  // `<RasdItemsList/>` with nothing inside parses as "".
  return isRecord(root) ? root : {};
}

/** Plain-object test for parsed XML and JSON. */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * The text of an element: `<IpAddress>10.0.0.1</IpAddress>` parses as a string, but an element
 * with attributes (`xsi:nil="true"`) as an object; absent or nil elements give undefined.
 */
export function textOf(value: unknown): string | undefined {
  if (typeof value === "string") return value === "" ? undefined : value;
  if (isRecord(value)) {
    const text = value["#text"];
    return typeof text === "string" && text !== "" ? text : undefined;
  }
  return undefined;
}

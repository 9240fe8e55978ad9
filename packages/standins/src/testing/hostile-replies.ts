import type { FaultHandle, FaultOptions, FaultSwitches } from "./faults.ts";

/** The body format of the API a hostile reply imitates. */
export type ReplyFormat = "json" | "xml";

/** One way a broken server, a proxy in front of it or a hostile one answers instead of the real thing. */
export interface HostileReply {
  /** Short name for test titles, e.g. "truncated". */
  name: string;
  /** Installs the reply on `path` of a stand-in's switches. */
  install(faults: FaultSwitches, path: string | RegExp, options?: FaultOptions): FaultHandle;
}

const LOGIN_PAGE =
  '<!DOCTYPE html>\n<html><head><title>Sign in</title></head><body><form method="post"><input name="password" type="password"></form></body></html>\n';

/** Every leaf of the wrong JSON type: numbers become text, text becomes numbers, booleans text. */
function wrongJsonTypes(value: unknown): unknown {
  if (typeof value === "number") return `${value}x`;
  if (typeof value === "string") return 7;
  if (typeof value === "boolean") return "yes";
  if (Array.isArray(value)) return value.map(wrongJsonTypes);
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, wrongJsonTypes(v)]));
  return value;
}

/** Every object keeps only its first field (the envelope survives; what is inside loses its fields). */
function missingJsonFields(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(missingJsonFields);
  if (value && typeof value === "object") {
    const [first] = Object.entries(value);
    return first ? { [first[0]]: missingJsonFields(first[1]) } : {};
  }
  return value;
}

function editJson(edit: (value: unknown) => unknown): (body: string) => string {
  return (body) => (body.trim() === "" ? body : JSON.stringify(edit(JSON.parse(body))));
}

// XML: numbers in attributes and elements become words; every attribute but the first of an element goes.
const wrongXmlTypes = (body: string) =>
  body.replace(/="-?\d+(\.\d+)?"/g, '="many"').replace(/>-?\d+(\.\d+)?</g, ">many<");
const missingXmlFields = (body: string) =>
  body.replace(/<([\w:]+)(\s+[\w:.-]+="[^"]*")(?:\s+[\w:.-]+="[^"]*")+/g, "<$1$2");

/**
 * The catalogue of hostile replies for a JSON or XML API: fields of the wrong type, missing
 * fields, a reverse proxy's 502 page, an HTML login page with 200, truncated and empty bodies, a
 * valid document with nothing in it, and a gigantic body of `giganticBytes` (streamed).
 */
export function hostileReplies(
  format: ReplyFormat,
  giganticBytes = 64 * 1024 * 1024,
): HostileReply[] {
  const isJson = format === "json";
  const contentType = isJson ? "application/json;charset=utf-8" : "application/*+xml;charset=UTF-8";
  return [
    {
      name: "fields of the wrong type",
      install: (faults, path, options) =>
        faults.rewrite(path, isJson ? editJson(wrongJsonTypes) : wrongXmlTypes, options),
    },
    {
      name: "missing fields",
      install: (faults, path, options) =>
        faults.rewrite(path, isJson ? editJson(missingJsonFields) : missingXmlFields, options),
    },
    {
      name: "a reverse proxy's 502 page",
      install: (faults, path, options) => faults.html(path, { ...options, status: 502 }),
    },
    {
      name: "an HTML login page with 200",
      install: (faults, path, options) =>
        faults.reply(path, { contentType: "text/html; charset=utf-8", body: LOGIN_PAGE }, options),
    },
    { name: "truncated", install: (faults, path, options) => faults.truncate(path, options) },
    {
      name: "an empty 200",
      install: (faults, path, options) => faults.reply(path, { contentType, body: "" }, options),
    },
    {
      name: "a document with nothing in it",
      install: (faults, path, options) =>
        faults.reply(
          path,
          { contentType, body: isJson ? "null" : '<?xml version="1.0" encoding="UTF-8"?>\n' },
          options,
        ),
    },
    {
      name: "a gigantic body",
      install: (faults, path, options) =>
        faults.flood(
          path,
          isJson
            ? {
                bytes: giganticBytes,
                contentType,
                prefix: '{"data":[',
                unit: '{"vmid":100},',
                suffix: "{}]}",
              }
            : {
                bytes: giganticBytes,
                contentType,
                prefix: '<?xml version="1.0" encoding="UTF-8"?>\n<QueryResultRecords>',
                unit: '<VMRecord name="x"/>',
                suffix: "</QueryResultRecords>",
              },
          options,
        ),
    },
  ];
}

import { z } from "zod";
import { optionalAttr, optionalText, repeated } from "./fields.ts";
import { parseWith } from "./malformed.ts";
import { parseXmlRoot } from "./xml.ts";

/** One API version `GET /api/versions` lists. */
export interface VcdApiVersion {
  version: string;
  isDeprecated: boolean;
}

const info = z.looseObject({ "@deprecated": optionalAttr, Version: optionalText });
const root = z.looseObject({ VersionInfo: repeated(info) });

/** Parses `GET /api/versions` (`<SupportedVersions><VersionInfo><Version>38.0</Version>…`). */
export function parseSupportedVersions(text: string, call: string): VcdApiVersion[] {
  const doc = parseWith(
    root,
    parseXmlRoot(text, "SupportedVersions", call),
    call,
    "SupportedVersions",
  );
  return doc.VersionInfo.flatMap((v) =>
    v.Version ? [{ version: v.Version.trim(), isDeprecated: v["@deprecated"] === "true" }] : [],
  );
}

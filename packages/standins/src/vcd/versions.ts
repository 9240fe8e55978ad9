import { NS } from "./namespaces.ts";
import { attributes, escapeXml, XML_DECLARATION } from "./xml.ts";

/** API versions Director 10.3–10.6 have published, oldest first. */
export const KNOWN_API_VERSIONS = [
  "33.0",
  "34.0",
  "35.0",
  "35.2",
  "36.0",
  "36.1",
  "36.2",
  "36.3",
  "37.0",
  "37.1",
  "37.2",
  "37.3",
  "38.0",
  "38.1",
  "39.0",
  "39.1",
  "40.0",
] as const;

/** The range of API versions a stand-in accepts, inclusive. */
export interface ApiVersionRange {
  min: string;
  max: string;
}

/** Director 10.6's range. */
export const DEFAULT_API_VERSIONS: ApiVersionRange = { min: "37.0", max: "39.1" };

function compare(a: string, b: string): number {
  const [aMajor = 0, aMinor = 0] = a.split(".").map(Number);
  const [bMajor = 0, bMinor = 0] = b.split(".").map(Number);
  return aMajor - bMajor || aMinor - bMinor;
}

/** The published versions inside a range, oldest first. */
export function versionsIn(range: ApiVersionRange): string[] {
  return KNOWN_API_VERSIONS.filter((v) => compare(v, range.min) >= 0 && compare(v, range.max) <= 0);
}

/** The `version=` parameter of an Accept header, if any (`application/json;version=38.0`). */
export function requestedVersion(accept: string | undefined): string | undefined {
  return accept === undefined ? undefined : /;\s*version=([\d.]+)/i.exec(accept)?.[1];
}

/** `GET /api/versions`: Director's unauthenticated version list (SupportedVersions). */
export function supportedVersionsXml(versions: string[], base: string): string {
  const infos = versions
    .map(
      (version) =>
        `    <VersionInfo ${attributes({ deprecated: "false" })}>\n` +
        `        <Version>${escapeXml(version)}</Version>\n` +
        `        <LoginUrl>${escapeXml(`${base}/api/sessions`)}</LoginUrl>\n` +
        "    </VersionInfo>\n",
    )
    .join("");
  return `${XML_DECLARATION}\n<SupportedVersions xmlns="${NS.versions}" xmlns:xsi="${NS.xsi}">\n${infos}</SupportedVersions>\n`;
}

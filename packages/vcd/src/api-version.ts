import type { VcdApiVersion } from "./parse/versions.ts";

/** The API version asked for first: VCD 10.5 (38.x); 10.4 speaks 37, 10.6 speaks 39. */
export const DEFAULT_API_VERSION = "38.0";

/** Versions Hyperlens reads: CloudAPI sessions, edge gateways of VDC groups and the query service as used. */
export const SUPPORTED_API_MAJORS = { min: 37, max: 39 } as const;

function parts(version: string): [number, number] | null {
  const match = /^(\d+)\.(\d+)/.exec(version.trim());
  return match ? [Number(match[1]), Number(match[2])] : null;
}

/** The highest listed version between 37.0 and 39.x, or null when the server offers none of them. */
export function pickApiVersion(offered: readonly VcdApiVersion[]): string | null {
  let best: { version: string; key: [number, number] } | null = null;
  for (const { version } of offered) {
    const key = parts(version);
    if (!key || key[0] < SUPPORTED_API_MAJORS.min || key[0] > SUPPORTED_API_MAJORS.max) continue;
    if (!best || key[0] > best.key[0] || (key[0] === best.key[0] && key[1] > best.key[1])) {
      best = { version: `${key[0]}.${key[1]}`, key };
    }
  }
  return best?.version ?? null;
}

import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The recorded Proxmox answers copied into the repo (never /work/shared). */
export const FIXTURES_DIR = fileURLToPath(
  new URL("../../../../fixtures/proxmox/", import.meta.url),
);

/** Parses a JSON fixture, e.g. `readFixture("nodes/GET.200.4-nodes-pve7.json")`. */
export function readFixture(relative: string): unknown {
  return JSON.parse(readFileSync(`${FIXTURES_DIR}${relative}`, "utf8"));
}

/** Raw text of a fixture. */
export function readFixtureText(relative: string): string {
  return readFileSync(`${FIXTURES_DIR}${relative}`, "utf8");
}

/** JSON fixture files of one endpoint folder, e.g. `fixtureFiles("qemu_config")`. */
export function fixtureFiles(folder: string): string[] {
  return readdirSync(`${FIXTURES_DIR}${folder}`)
    .filter((name) => name.endsWith(".json"))
    .map((name) => `${folder}/${name}`);
}

/** A recorded raw HTTP response (`errors/*.http`). */
export interface HttpFixture {
  status: number;
  reason: string;
  headers: Record<string, string>;
  body: string;
}

/** Reads a raw HTTP fixture: status line, headers, CRLF, body. */
export function readHttpFixture(relative: string): HttpFixture {
  const text = readFixtureText(relative);
  const split = text.indexOf("\r\n\r\n");
  const head = text.slice(0, split);
  const body = text.slice(split + 4);
  const [statusLine = "", ...headerLines] = head.split("\r\n");
  const match = /^HTTP\/1\.[01] (\d{3}) ?(.*)$/.exec(statusLine);
  if (!match) throw new Error(`bad status line in ${relative}`);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const at = line.indexOf(":");
    headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  }
  return { status: Number(match[1]), reason: match[2] ?? "", headers, body };
}

import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The recorded Director answers copied into the repo (never /work/shared). */
export const FIXTURES_DIR = fileURLToPath(new URL("../../../../fixtures/vcd/", import.meta.url));

/** Raw text of a fixture, e.g. `readFixtureText("query_vm/GET.200.records-4vms-incl-template.xml")`. */
export function readFixtureText(relative: string): string {
  return readFileSync(`${FIXTURES_DIR}${relative}`, "utf8");
}

/** Files of one endpoint folder, e.g. `fixtureFiles("vm_disks")`. */
export function fixtureFiles(folder: string): string[] {
  return readdirSync(`${FIXTURES_DIR}${folder}`).map((name) => `${folder}/${name}`);
}

/** A recorded raw HTTP response (`*.http`). */
export interface HttpFixture {
  status: number;
  reason: string;
  headers: Record<string, string>;
  body: string;
}

/** Reads a raw HTTP fixture: status line, headers, blank line, body (LF or CRLF). */
export function readHttpFixture(relative: string): HttpFixture {
  const text = readFixtureText(relative).replace(/\r\n/g, "\n");
  const split = text.indexOf("\n\n");
  const head = split < 0 ? text : text.slice(0, split);
  const body = split < 0 ? "" : text.slice(split + 2);
  const [statusLine = "", ...headerLines] = head.split("\n");
  const match = /^HTTP\/1\.[01] (\d{3}) ?(.*)$/.exec(statusLine.trim());
  if (!match) throw new Error(`bad status line in ${relative}`);
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const at = line.indexOf(":");
    if (at > 0) headers[line.slice(0, at).trim().toLowerCase()] = line.slice(at + 1).trim();
  }
  return { status: Number(match[1]), reason: match[2] ?? "", headers, body };
}

import { readFileSync } from "node:fs";
import type { RawResponse } from "./https-client.ts";

const FIXTURES = new URL("../../../../fixtures/vcd/", import.meta.url);

/** A recorded fixture under fixtures/vcd as text. */
export function vcdFixtureText(path: string): string {
  return readFileSync(new URL(path, FIXTURES), "utf8");
}

/** A recorded `.http` fixture under fixtures/vcd as a response (status, headers, body). */
export function vcdFixtureHttp(path: string): RawResponse {
  const text = vcdFixtureText(path).replace(/\r?\n/g, "\r\n");
  const split = text.indexOf("\r\n\r\n");
  const head = (split < 0 ? text : text.slice(0, split)).split("\r\n");
  const match = /^HTTP\/1\.1 (\d{3}) (.*)$/.exec(head[0] ?? "");
  if (!match) throw new Error(`bad fixture status line in ${path}`);
  const headers = head
    .slice(1)
    .filter((line) => line.includes(":"))
    .map((line): [string, string] => {
      const colon = line.indexOf(":");
      return [line.slice(0, colon), line.slice(colon + 1).trim()];
    });
  const body = split < 0 ? "" : text.slice(split + 4).replace(/\r\n/g, "\n");
  return { status: Number(match[1]), reason: match[2] ?? "", headers, body };
}

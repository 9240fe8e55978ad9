import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type HttpFixture, parseHttpFixture } from "@hyperlens/hyper-http/testing";

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

/** Reads a raw HTTP fixture (`*.http`), its line ends made LF (the body's too). */
export function readHttpFixture(relative: string): HttpFixture {
  return parseHttpFixture(readFixtureText(relative).replace(/\r\n/g, "\n"), relative);
}

import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The recorded vSphere answers copied into the repo (never /work/shared). */
export const FIXTURES_DIR = fileURLToPath(
  new URL("../../../../fixtures/vsphere/", import.meta.url),
);

/** Raw text of a fixture, e.g. `fixtureText("vcenter_vm/GET.200.list.json")`. */
export function fixtureText(relative: string): string {
  return readFileSync(`${FIXTURES_DIR}${relative}`, "utf8");
}

/** A JSON fixture, parsed; for `.http` files the body after the blank line. */
export function fixtureJson(relative: string): unknown {
  const text = fixtureText(relative).replace(/\r\n/g, "\n");
  if (!relative.endsWith(".http")) return JSON.parse(text);
  const split = text.indexOf("\n\n");
  return JSON.parse(text.slice(split + 2));
}

/** Every fixture file (endpoint folders only, not the schema). */
export function allFixtures(): string[] {
  return readdirSync(FIXTURES_DIR, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && entry.name !== "schema")
    .flatMap((dir) => readdirSync(`${FIXTURES_DIR}${dir.name}`).map((f) => `${dir.name}/${f}`));
}

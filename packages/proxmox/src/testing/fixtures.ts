import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type HttpFixture, parseHttpFixture } from "@hyperlens/hyper-http/testing";

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

/** Reads a raw HTTP fixture (`errors/*.http`), its body byte for byte. */
export function readHttpFixture(relative: string): HttpFixture {
  return parseHttpFixture(readFixtureText(relative), relative);
}

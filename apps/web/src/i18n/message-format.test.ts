import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { formatMessage, messageArguments } from "./message-format.ts";

const servers = "{count, plural, one {# server} other {# servers}}";
const polish =
  "{count, plural, one {# serwer} few {# serwery} many {# serwerów} other {# serwera}}";
const arabic =
  "{count, plural, zero {لا خوادم} one {خادم واحد} two {خادمان} few {# خوادم} many {# خادمًا} other {# خادم}}";

describe("formatMessage", () => {
  it("fills named placeholders and leaves unknown ones visible", () => {
    expect(formatMessage("en", "Signed in as {username} {x}", { username: "ada" })).toBe(
      "Signed in as ada {x}",
    );
  });

  it("picks the English plural form", () => {
    expect(formatMessage("en", servers, { count: 1 })).toBe("1 server");
    expect(formatMessage("en", servers, { count: 1200 })).toBe("1,200 servers");
  });

  it("picks Polish one, few and many forms", () => {
    expect(formatMessage("pl", polish, { count: 1 })).toBe("1 serwer");
    expect(formatMessage("pl", polish, { count: 3 })).toBe("3 serwery");
    expect(formatMessage("pl", polish, { count: 5 })).toBe("5 serwerów");
    expect(formatMessage("pl", polish, { count: 22 })).toBe("22 serwery");
    expect(formatMessage("pl", polish, { count: 1.5 })).toBe("1,5 serwera");
  });

  it("picks all six Arabic forms", () => {
    const n = (value: number) => new Intl.NumberFormat("ar").format(value);
    expect(formatMessage("ar", arabic, { count: 0 })).toBe("لا خوادم");
    expect(formatMessage("ar", arabic, { count: 1 })).toBe("خادم واحد");
    expect(formatMessage("ar", arabic, { count: 2 })).toBe("خادمان");
    expect(formatMessage("ar", arabic, { count: 3 })).toBe(`${n(3)} خوادم`);
    expect(formatMessage("ar", arabic, { count: 11 })).toBe(`${n(11)} خادمًا`);
    expect(formatMessage("ar", arabic, { count: 100 })).toBe(`${n(100)} خادم`);
  });

  it("uses Japanese's single form for every count", () => {
    const text = "{count, plural, other {# 台のサーバー}}";
    expect(formatMessage("ja", text, { count: 1 })).toBe("1 台のサーバー");
    expect(formatMessage("ja", text, { count: 12345 })).toBe("12,345 台のサーバー");
  });

  it("prefers an exact =n branch and falls back to other", () => {
    const text = "{count, plural, =0 {none} other {# left}}";
    expect(formatMessage("ja", text, { count: 0 })).toBe("none");
    expect(formatMessage("ja", text, { count: 4 })).toBe("4 left");
  });

  it("chooses a select branch, and other for a value it does not name", () => {
    const text = "node {node} is {status, select, offline {offline} other {in an unknown state}}";
    expect(formatMessage("en", text, { node: "pve4", status: "offline" })).toBe(
      "node pve4 is offline",
    );
    expect(formatMessage("en", text, { node: "pve4", status: "unknown" })).toBe(
      "node pve4 is in an unknown state",
    );
  });

  it("keeps text around a plural block and formats numbers per locale", () => {
    expect(
      formatMessage("de", "Es gibt {count, plural, other {# VMs}} in {name}", {
        count: 12345,
        name: "pve",
      }),
    ).toBe("Es gibt 12.345 VMs in pve");
    expect(formatMessage("fr", "{n} octets", { n: 1234567 })).toBe(
      `${new Intl.NumberFormat("fr").format(1234567)} octets`,
    );
  });

  it("keeps tags and apostrophes as text", () => {
    expect(formatMessage("fr", "l'adresse <b>{a}</b>", { a: "10.0.0.1" })).toBe(
      "l'adresse <b>10.0.0.1</b>",
    );
  });

  it("lists the arguments a message uses, inside plural and select branches too", () => {
    expect([
      ...messageArguments("en", "{a} {n, plural, other {# {b}}} {s, select, x {{c}} other {}}"),
    ]).toEqual(["a", "n", "b", "s", "c"]);
  });
});

describe("the catalogs", () => {
  const dir = new URL("../../../../locales/", import.meta.url);
  const leaves = (tree: unknown, prefix = ""): [string, string][] =>
    Object.entries(tree as Record<string, unknown>).flatMap(([key, value]) =>
      typeof value === "string" ? [[`${prefix}${key}`, value]] : leaves(value, `${prefix}${key}.`),
    );

  it("hold only messages the formatter parses", () => {
    const broken: string[] = [];
    for (const file of readdirSync(dir).filter((name) => name.endsWith(".json"))) {
      const locale = file.replace(/\.json$/, "");
      for (const [key, text] of leaves(JSON.parse(readFileSync(new URL(file, dir), "utf8")))) {
        try {
          messageArguments(locale, text);
        } catch (error) {
          broken.push(`${file} ${key}: ${(error as Error).message}`);
        }
      }
    }
    expect(broken).toEqual([]);
  });
});

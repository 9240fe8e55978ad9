// docs/behaviour.md §9.52, §11.4: every code the server can send is said in every language, with
// only the parameters the server fills, and the web's English is the server's English.
import { readdirSync, readFileSync } from "node:fs";
import { localizedMessage, SERVER_TEXT, type ServerTextCode, serverText } from "@hyperlens/shared";
import { afterEach, describe, expect, it } from "vitest";
import { setLanguage } from "./i18n.ts";
import { formatMessage, messageArguments } from "./message-format.ts";
import { serverMessagesText, serverMessageText } from "./server-text.ts";

const dir = new URL("../../../../locales/", import.meta.url);
const locales = readdirSync(dir)
  .filter((file) => file.endsWith(".json"))
  .map((file) => ({
    locale: file.replace(/\.json$/, ""),
    texts: (JSON.parse(readFileSync(new URL(file, dir), "utf8")).serverText ?? {}) as Record<
      string,
      string
    >,
  }));
const codes = Object.keys(SERVER_TEXT) as ServerTextCode[];
const sampleValues = (code: ServerTextCode) =>
  Object.fromEntries(
    Object.entries(SERVER_TEXT[code].sample).map(([name, value]) => [
      name,
      typeof value === "object" ? "x" : value,
    ]),
  ) as Record<string, string | number>;

describe("the server's codes in the catalogs", () => {
  it("are all in all 14 locales", () => {
    expect(locales).toHaveLength(14);
    const missing = locales.flatMap(({ locale, texts }) =>
      codes.filter((code) => typeof texts[code] !== "string").map((code) => `${locale} ${code}`),
    );
    expect(missing).toEqual([]);
  });

  it("has no code the server does not send", () => {
    const extra = locales.flatMap(({ locale, texts }) =>
      Object.keys(texts)
        .filter((code) => !(code in SERVER_TEXT))
        .map((code) => `${locale} ${code}`),
    );
    expect(extra).toEqual([]);
  });

  it("say the server's English word for word in en.json", () => {
    const en = locales.find((l) => l.locale === "en")?.texts ?? {};
    for (const code of codes) expect(en[code], code).toBe(SERVER_TEXT[code].en);
  });

  it("use only the parameters the server sends, and fill with them", () => {
    const problems: string[] = [];
    for (const { locale, texts } of locales) {
      for (const code of codes) {
        const text = texts[code] ?? "";
        const sent = Object.keys(SERVER_TEXT[code].sample);
        for (const name of messageArguments(locale, text)) {
          if (!sent.includes(name)) problems.push(`${locale} ${code}: {${name}} is never sent`);
        }
        const filled = formatMessage(locale, text, sampleValues(code));
        if (/\{\w+\}/.test(filled)) problems.push(`${locale} ${code}: left ${filled}`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe("serverMessageText", () => {
  afterEach(() => setLanguage("en"));
  const offline = localizedMessage(
    serverText("nodeNotOnline", { node: "pve4", status: "offline" }),
  );

  it("says a known code in the current language", async () => {
    await setLanguage("de");
    expect(serverMessageText(offline)).toBe("Knoten pve4 ist offline");
    await setLanguage("ja");
    expect(serverMessageText(offline)).toBe("ノード pve4 はオフラインです");
  });

  it("translates nested texts inside the parameters", async () => {
    await setLanguage("de");
    const skipped = localizedMessage(
      serverText("syncListSkipped", {
        list: "pve4/qemu",
        status: "node_offline",
        reason: serverText("nodeNotOnline", { node: "pve4", status: "offline" }),
      }),
    );
    expect(serverMessageText(skipped)).toBe(
      "pve4/qemu übersprungen (Knoten offline: Knoten pve4 ist offline).",
    );
  });

  it("keeps the server's English for a code this web app does not know", async () => {
    await setLanguage("de");
    const unknown = { code: "somethingNewer", params: { n: 1 }, message: "Something newer." };
    expect(serverMessageText(unknown)).toBe("Something newer.");
  });

  it("keeps the English message when there are no texts", () => {
    expect(serverMessagesText(null, "3 guests seen.")).toBe("3 guests seen.");
    expect(serverMessagesText([offline], "ignored")).toBe("node pve4 is offline");
  });
});

import { describe, expect, it } from "vitest";
import { formatMessage } from "./message-format.ts";

const servers = "{count, plural, one {# server} other {# servers}}";
const polish =
  "{count, plural, one {# serwer} few {# serwery} many {# serwerów} other {# serwera}}";

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

  it("picks Polish few and many forms from Intl.PluralRules", () => {
    expect(formatMessage("pl", polish, { count: 3 })).toBe("3 serwery");
    expect(formatMessage("pl", polish, { count: 5 })).toBe("5 serwerów");
  });

  it("prefers an exact =n branch and falls back to other", () => {
    const text = "{count, plural, =0 {none} other {# left}}";
    expect(formatMessage("ja", text, { count: 0 })).toBe("none");
    expect(formatMessage("ja", text, { count: 4 })).toBe("4 left");
  });

  it("keeps text around a plural block and formats numbers per locale", () => {
    expect(
      formatMessage("de", "Es gibt {count, plural, other {# VMs}} in {name}", {
        count: 12345,
        name: "pve",
      }),
    ).toBe("Es gibt 12.345 VMs in pve");
  });
});

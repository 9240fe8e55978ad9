// The failures the Director connector words itself carry codes (docs/behaviour.md §11.4).
import { errorText, serverText } from "@hyperlens/shared";
import { describe, expect, it } from "vitest";
import { hrefToApiPath } from "./href.ts";
import { parseLoginName } from "./login-name.ts";
import { malformed } from "./parse/malformed.ts";

const textOf = (act: () => unknown) => {
  try {
    act();
  } catch (error) {
    return errorText(error);
  }
  throw new Error("expected a failure");
};

describe("the Director connector's own failures as codes (docs/behaviour.md §11.4)", () => {
  it("a login name without an organization", () => {
    expect(textOf(() => parseLoginName("admin"))).toEqual(serverText("vcdLoginNameNoOrg", {}));
  });

  it("a link it will not follow, saying why", () => {
    expect(textOf(() => hrefToApiPath("vApp/vm-1"))).toEqual(
      serverText("vcdHrefRefused", { why: "not_absolute", href: "vApp/vm-1" }),
    );
    expect(textOf(() => hrefToApiPath("https://vcd.example.com/cloudapi/x"))).toEqual(
      serverText("vcdHrefRefused", {
        why: "outside_api",
        href: "https://vcd.example.com/cloudapi/x",
      }),
    );
  });

  it("an answer of an unexpected shape: our frame, the detail verbatim", () => {
    expect(errorText(malformed("GET /api/query", "no end after 100 pages"))).toEqual(
      serverText("hyperAnswerMalformed", {
        source: "Cloud Director",
        call: "GET /api/query",
        detail: "no end after 100 pages",
      }),
    );
  });
});

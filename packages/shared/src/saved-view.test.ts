import { describe, expect, it } from "vitest";
import { SAVED_VIEW_QUERY_MAX, savedViewQueryProblem, viewQueryOf } from "./saved-view.ts";

describe("a saved view's query string (docs/behaviour.md §9.47)", () => {
  it("is the page's parameters without the drawer's guest and the view being opened", () => {
    const params = new URLSearchParams("q=web+01&vm=Vm%3A1&sort=CPU&view=abc&cols=name,cpu");
    expect(viewQueryOf(params)).toBe("q=web+01&sort=CPU&cols=name%2Ccpu");
  });

  it("accepts whatever the page writes, parameters it does not know of included", () => {
    const written = new URLSearchParams({ q: "db 01 ümlaut", group: "source", x9: "a&b=c" });
    expect(savedViewQueryProblem(written.toString())).toBeNull();
    expect(savedViewQueryProblem("")).toBeNull();
  });

  it("refuses a query string too long, with its length", () => {
    const long = `q=${"a".repeat(SAVED_VIEW_QUERY_MAX)}`;
    expect(savedViewQueryProblem(long)).toMatch(/at most 2000 characters; this one has 2002/);
  });

  it("refuses junk that is not what the page writes, each with its reason", () => {
    expect(savedViewQueryProblem("?q=web")).toMatch(/without \? or #/);
    expect(savedViewQueryProblem("q=web#top")).toMatch(/without \? or #/);
    expect(savedViewQueryProblem("<script>")).toMatch(/as the Servers page writes it/);
    expect(savedViewQueryProblem("q=a&&sort=CPU")).toMatch(/“” is not a name=value/);
    expect(savedViewQueryProblem("Q=web")).toMatch(/“Q=web” is not a name=value/);
    expect(savedViewQueryProblem("q")).toMatch(/“q” is not a name=value/);
    expect(savedViewQueryProblem("q=%zz")).toMatch(/“q” is not valid percent-encoding/);
    expect(savedViewQueryProblem(Array(41).fill("a=1").join("&"))).toMatch(/at most 40 parameters/);
  });

  it("refuses the drawer's guest and a view id: they are not what the table shows", () => {
    expect(savedViewQueryProblem("q=web&vm=abc")).toMatch(/does not keep “vm”/);
    expect(savedViewQueryProblem("view=abc")).toMatch(/does not keep “view”/);
  });
});

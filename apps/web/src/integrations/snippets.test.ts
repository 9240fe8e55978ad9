import { describe, expect, it } from "vitest";
import {
  ansibleSnippet,
  asksForRemoved,
  exportQuery,
  prometheusSnippet,
  shellQuote,
  yamlQuote,
} from "./snippets.ts";

const input = {
  origin: "https://hyperlens.example",
  token: "hlk_abc",
  filter: { search: "web", state: ["RUNNING" as const], source: [] },
  port: 9100,
};

describe("the integration snippets", () => {
  it("carry the Servers page's filter under the GraphQL filter's names, leaving empty ones out", () => {
    expect(exportQuery(input.filter).toString()).toBe("search=web&state=RUNNING");
  });

  // docs/behaviour.md §9.30: every filter the list has reaches the export, yes-or-no ones too.
  it("carry every filter of the list, templates and confirmation included, and never removed guests", () => {
    const filter = {
      search: "web",
      isTemplate: false,
      confirmation: ["NOT_CONFIRMED" as const],
      kind: ["VM" as const],
      tags: ["a b"],
      includeRemoved: true,
    };
    const query = exportQuery(filter);
    expect(Object.fromEntries(query)).toEqual({
      search: "web",
      isTemplate: "false",
      confirmation: "NOT_CONFIRMED",
      kind: "VM",
      tags: "a b",
    });
    expect(exportQuery({ isTemplate: true }).toString()).toBe("isTemplate=true");
    expect(prometheusSnippet({ ...input, filter })).toContain(
      "sd/prometheus?search=web&isTemplate=false&confirmation=NOT_CONFIRMED&kind=VM&tags=a+b&port=9100",
    );
    // The exports refuse removed guests (§14.12): the page says so instead of sending it.
    expect(asksForRemoved(filter)).toBe(true);
    expect(asksForRemoved({ isTemplate: false })).toBe(false);
  });

  it("quote a search so no shell runs any of it", () => {
    const hostile = `x'; rm -rf / #`;
    expect(shellQuote(hostile)).toBe(`'x'\\''; rm -rf / #'`);
    const snippet = ansibleSnippet({ ...input, filter: { search: hostile } });
    expect(snippet).toContain(`export HYPERLENS_INVENTORY_QUERY='search=x%27%3B+rm+-rf+%2F+%23'`);
  });

  it("quote YAML values, so a colon or quote in a value stays a value", () => {
    expect(yamlQuote('a: "b"')).toBe('"a: \\"b\\""');
    const snippet = prometheusSnippet(input);
    expect(snippet).toContain(
      'url: "https://hyperlens.example/sd/prometheus?search=web&state=RUNNING&port=9100"',
    );
    expect(snippet).toContain('credentials: "hlk_abc"');
  });

  it("name where the token goes when none was made for them", () => {
    expect(ansibleSnippet({ ...input, token: undefined })).toContain(
      "export HYPERLENS_TOKEN='hlk_your_token_here'",
    );
  });
});

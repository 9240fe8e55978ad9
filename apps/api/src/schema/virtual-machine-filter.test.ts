// The list's text filters match what was typed, character for character: `%`, `_` and `\` are
// not wildcards or escapes, on PGlite and on PostgreSQL (DATABASE_URL) alike.
import { NAMED_LOCATION_FIELDS } from "@hyperlens/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { neutralVm, seedConnection } from "../testing/seed-inventory.ts";
import { startTestApp, type TestApp } from "../testing/test-app.ts";

/** Each LIKE special character, and a value an unescaped pattern made of `a<char>b` also matches. */
const SPECIALS = [
  { char: "%", decoy: "axyzb" },
  { char: "_", decoy: "axb" },
  // Unescaped, `a\b` is the pattern "ab" (the backslash escapes the b).
  { char: "\\", decoy: "ab" },
];

/** Filters that hold a whole value, exact but any case. */
const EXACT_FIELDS = NAMED_LOCATION_FIELDS;
/** Filters that hold part of a value, any case. */
const SUBSTRING_FIELDS = ["search", "guestOs"] as const;

const LIST = `query($filter: VirtualMachineFilter) {
  virtualMachines(filter: $filter, first: 100) { totalCount edges { node { name } } }
}`;

let app: TestApp;
let viewer: string;

/** A guest whose every text column holds `value`, so each filter finds it by that one value. */
const guestNamed = (externalId: string, value: string) =>
  neutralVm(externalId, {
    name: value,
    guestOs: value,
    location: Object.fromEntries(EXACT_FIELDS.map((field) => [field, value])),
  });

beforeAll(async () => {
  app = await startTestApp();
  viewer = await app.signedInAs("viewer", { capabilities: ["VIEW_INVENTORY"] });
  await seedConnection(
    app.services,
    "VCENTER",
    "wildcards",
    SPECIALS.flatMap(({ char, decoy }, i) => [
      guestNamed(`vm-${i}-literal`, `a${char}b`),
      guestNamed(`vm-${i}-decoy`, decoy),
    ]),
  );
});
afterAll(async () => app?.close());

async function namesFor(filter: Record<string, string>) {
  const res = await app.graphql<{
    virtualMachines: { totalCount: number; edges: { node: { name: string } }[] };
  }>(LIST, { filter }, { cookie: viewer });
  if (!res.body.data) throw new Error(JSON.stringify(res.body));
  const page = res.body.data.virtualMachines;
  expect(page.totalCount).toBe(page.edges.length);
  return page.edges.map((edge) => edge.node.name).sort();
}

describe("the list's text filters", () => {
  for (const { char } of SPECIALS) {
    for (const field of EXACT_FIELDS) {
      it(`${field}: "A${char}B" matches a${char}b exactly, any case, and nothing else`, async () => {
        expect(await namesFor({ [field]: `A${char}B` })).toEqual([`a${char}b`]);
      });
    }
    for (const field of SUBSTRING_FIELDS) {
      it(`${field}: "${char}" and "A${char}B" find only values holding that text`, async () => {
        expect(await namesFor({ [field]: char })).toEqual([`a${char}b`]);
        expect(await namesFor({ [field]: `A${char}B` })).toEqual([`a${char}b`]);
      });
    }
  }

  it("still find by a plain value and by a substring", async () => {
    expect(await namesFor({ nodeName: "AXB" })).toEqual(["axb"]);
    expect(await namesFor({ search: "XYZ" })).toEqual(["axyzb"]);
    expect(await namesFor({ guestOs: "x" })).toEqual(["axb", "axyzb"]);
  });
});

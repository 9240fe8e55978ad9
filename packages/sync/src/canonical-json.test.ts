import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { canonicalJson } from "./canonical-json.ts";
import { fingerprintOf } from "./fingerprint.ts";

// A document with everything a normalized VM can hold, its keys deliberately out of order.
const document = {
  zeta: "last",
  alpha: { nested: { b: [3, 2, 1], a: { deeper: true } }, empty: {}, list: [] },
  "10": "integer-like keys sort as text",
  "2": "so 10 comes before 2",
  numbers: [0, -0, 1.5, -42, 1e21, 1e-7, Number.MAX_SAFE_INTEGER, Number.NaN, Infinity],
  flags: { isOn: true, isOff: false, nothing: null, dropped: undefined },
  holes: [1, undefined, null],
  text: {
    accents: "Café Zürich",
    cjk: "虚拟机",
    emoji: "🖥️ vm",
    escapes: 'quote " backslash \\ newline \n tab \t',
    separators: "line\u2028paragraph\u2029",
    loneSurrogate: "\ud800",
  },
  Upper: "capitals sort before lower case",
  ключ: "a non-ASCII key",
};

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

describe("canonical JSON", () => {
  // Stored rows keep a hash of this output as their fingerprint: any change in it, however small,
  // makes every stored row look changed, so the next sync of every connection rewrites all of them.
  // Change the pins only together with a FINGERPRINT_VERSION bump in fingerprint.ts.
  it("gives the pinned bytes for a representative document, since stored fingerprints are hashes of them", () => {
    expect(sha256(canonicalJson(document))).toBe(
      "9c788e8cfac2e2cbd9fd3f37a164c3d8add1528c91536c28a6ded4f156062f20",
    );
    expect(fingerprintOf(document)).toBe(
      "f9baaf13955510ec74ae93eba3dd2eea66984b1615c7c2b0f943ba4eda3c0332",
    );
  });
});

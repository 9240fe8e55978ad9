// docs/behaviour.md §12: who signed in is read from the ID token with the provider's claim names;
// the groups claim may be a list or one string.
import { describe, expect, it } from "vitest";
import { groupsFromClaim, identityFromClaims, OidcSignInError } from "./oidc.ts";
import { oidcSettingsSchema } from "./provider-config.ts";

const settings = oidcSettingsSchema.parse({ issuer: "https://sso.example", clientId: "c" });

describe("reading the ID token's claims", () => {
  it("takes groups as a list, or as one string separated by spaces or commas", () => {
    expect(groupsFromClaim(["a", "b c", 7, null])).toEqual(["a", "b c", "7"]);
    expect(groupsFromClaim("a b,c, d")).toEqual(["a", "b", "c", "d"]);
    expect(groupsFromClaim(undefined)).toEqual([]);
    expect(groupsFromClaim({ a: 1 })).toEqual([]);
  });

  it("uses the configured claim names", () => {
    const entra = { ...settings, groupsClaim: "roles", usernameClaim: "upn", subjectClaim: "oid" };
    expect(
      identityFromClaims(entra, {
        sub: "pairwise-sub",
        oid: "0f0e-object-id",
        upn: "jane@corp.example",
        roles: ["Hyperlens.Admin"],
        groups: ["ignored"],
      }),
    ).toEqual({
      subject: "0f0e-object-id",
      preferredUsername: "jane@corp.example",
      email: undefined,
      groups: ["Hyperlens.Admin"],
    });
  });

  it("refuses a token without the subject claim", () => {
    expect(() => identityFromClaims(settings, { preferred_username: "x" })).toThrow(
      OidcSignInError,
    );
    expect(() => identityFromClaims(settings, { sub: "   " })).toThrow(/no sub claim/);
  });
});

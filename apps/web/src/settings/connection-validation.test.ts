import { describe, expect, it } from "vitest";
import {
  type ConnectionDraft,
  inputFromDraft,
  keepsStoredSecret,
  validateDraft,
} from "./connection-validation.ts";

const draft: ConnectionDraft = {
  kind: "PROXMOX",
  name: "pve",
  url: "https://pve.example:8006",
  username: "hyperlens@pve",
  tokenId: "inventory",
  secret: "s3cret",
  caPem: "",
  verifyTls: true,
  isProvider: false,
  isActive: true,
  syncIntervalSeconds: "900",
  maxConcurrentRequests: "16",
  maxRequestsPerNode: "2",
  loadedLimits: { maxConcurrentRequests: "16", maxRequestsPerNode: "2" },
  lightPollSeconds: "15",
  storedSecretFor: null,
};
const stored = {
  url: draft.url,
  username: draft.username,
  tokenId: draft.tokenId,
  verifyTls: draft.verifyTls,
  caPem: draft.caPem,
};
const CA = "-----BEGIN CERTIFICATE-----\nMIIB-our-ca\n-----END CERTIFICATE-----";
const OTHER_CA = "-----BEGIN CERTIFICATE-----\nMIIB-another-ca\n-----END CERTIFICATE-----";

describe("validateDraft", () => {
  it("accepts a complete https Proxmox draft", () => {
    expect(validateDraft(draft)).toEqual({});
  });

  it("takes a light-poll interval of 0 (off) or 5–3600 whole seconds (docs/behaviour.md §8.7)", () => {
    for (const ok of ["0", "5", "15", "3600"]) {
      expect(validateDraft({ ...draft, lightPollSeconds: ok }).lightPollSeconds).toBeUndefined();
    }
    for (const bad of ["", "4", "3601", "1.5", "-1", "abc"]) {
      expect(validateDraft({ ...draft, lightPollSeconds: bad }).lightPollSeconds).toBe(
        "settings.problem.lightPollSeconds",
      );
    }
  });

  it("refuses plain http inline", () => {
    expect(validateDraft({ ...draft, url: "http://pve.example:8006" }).url).toBe(
      "settings.problem.httpsOnly",
    );
  });

  it("wants user@org without a colon for Director", () => {
    const vcd = { ...draft, kind: "VCD" as const };
    expect(validateDraft({ ...vcd, username: "admin:acme" }).username).toBe(
      "settings.problem.vcdColon",
    );
    expect(validateDraft({ ...vcd, username: "admin" }).username).toBe(
      "settings.problem.vcdUserOrg",
    );
    expect(validateDraft({ ...vcd, username: "admin@acme" }).username).toBeUndefined();
  });

  it("wants the Proxmox request limits as whole numbers from 1 to 16", () => {
    for (const bad of ["0", "17", "2.5", "", "x"]) {
      expect(validateDraft({ ...draft, maxRequestsPerNode: bad }).maxRequestsPerNode, bad).toBe(
        "settings.problem.requestLimit",
      );
      expect(validateDraft({ ...draft, maxConcurrentRequests: bad }).maxConcurrentRequests).toBe(
        "settings.problem.requestLimit",
      );
    }
    expect(validateDraft({ ...draft, maxConcurrentRequests: " 8 " })).toEqual({});
    // Director and vCenter have no such fields in the form.
    expect(validateDraft({ ...draft, kind: "VCENTER", maxRequestsPerNode: "" })).toEqual({});
  });

  it("wants the sync interval as whole seconds from 60 to a week, as the server does, for every kind", () => {
    for (const bad of ["59", "604801", "90.5", "", "15m"]) {
      for (const kind of ["PROXMOX", "VCD", "VCENTER"] as const) {
        expect(
          validateDraft({ ...draft, kind, syncIntervalSeconds: bad }).syncIntervalSeconds,
        ).toBe("settings.problem.syncInterval");
      }
    }
    expect(validateDraft({ ...draft, syncIntervalSeconds: " 60 " })).toEqual({});
    expect(validateDraft({ ...draft, syncIntervalSeconds: "604800" })).toEqual({});
    expect(inputFromDraft({ ...draft, syncIntervalSeconds: " 3600 " })).toMatchObject({
      syncIntervalSeconds: 3600,
    });
  });

  it("sends a request limit only when it was changed, so a default is not stored as set", () => {
    expect(inputFromDraft(draft)).not.toHaveProperty("maxConcurrentRequests");
    expect(inputFromDraft(draft)).not.toHaveProperty("maxRequestsPerNode");
    const changed = inputFromDraft({ ...draft, maxRequestsPerNode: "3" });
    expect(changed).toMatchObject({ maxRequestsPerNode: 3 });
    expect(changed).not.toHaveProperty("maxConcurrentRequests");
  });

  it("needs a secret on the first save but not when one is stored", () => {
    expect(validateDraft({ ...draft, secret: "" }).secret).toBe("settings.problem.secretFirst");
    expect(validateDraft({ ...draft, secret: "", storedSecretFor: stored }).secret).toBeUndefined();
  });

  it("needs the secret again once the address, user or token id differs from where it was stored", () => {
    const editing = { ...draft, id: "C1", secret: "", storedSecretFor: stored };
    expect(keepsStoredSecret(editing)).toBe(true);
    expect(keepsStoredSecret({ ...editing, name: "renamed", url: `${draft.url}/` })).toBe(true);
    for (const change of [
      { url: "https://elsewhere.example:8006" },
      { username: "root@pam" },
      { tokenId: "other" },
      { tokenId: "" },
    ]) {
      expect(keepsStoredSecret({ ...editing, ...change }), JSON.stringify(change)).toBe(false);
      expect(validateDraft({ ...editing, ...change }).secret).toBe("settings.problem.secretAgain");
      expect(validateDraft({ ...editing, ...change, secret: "new" }).secret).toBeUndefined();
    }
  });
});

describe("a stored secret and TLS trust", () => {
  const editing = (trust: { verifyTls: boolean; caPem: string }) => ({
    ...draft,
    id: "C1",
    secret: "",
    ...trust,
    storedSecretFor: { ...stored, ...trust },
  });

  it("needs the secret again once verification is turned off or another CA certificate is pasted", () => {
    for (const [then, now] of [
      [
        { verifyTls: true, caPem: CA },
        { verifyTls: false, caPem: CA },
      ],
      [
        { verifyTls: true, caPem: "" },
        { verifyTls: false, caPem: "" },
      ],
      [
        { verifyTls: true, caPem: CA },
        { verifyTls: true, caPem: OTHER_CA },
      ],
      [
        { verifyTls: true, caPem: CA },
        { verifyTls: true, caPem: `${CA}\n${OTHER_CA}` },
      ],
      [
        { verifyTls: true, caPem: "" },
        { verifyTls: true, caPem: CA },
      ],
    ] as const) {
      const loosened = { ...editing(then), ...now };
      expect(keepsStoredSecret(loosened), JSON.stringify({ then, now })).toBe(false);
      expect(validateDraft(loosened).secret).toBe("settings.problem.secretAgain");
      expect(validateDraft({ ...loosened, secret: "new" }).secret).toBeUndefined();
    }
  });

  it("keeps the stored secret when verification is turned on or the CA certificate removed", () => {
    for (const [then, now] of [
      [
        { verifyTls: false, caPem: "" },
        { verifyTls: true, caPem: "" },
      ],
      [
        { verifyTls: false, caPem: "" },
        { verifyTls: true, caPem: CA },
      ],
      [
        { verifyTls: false, caPem: CA },
        { verifyTls: false, caPem: OTHER_CA },
      ],
      [
        { verifyTls: true, caPem: CA },
        { verifyTls: true, caPem: "" },
      ],
      [
        { verifyTls: true, caPem: CA },
        { verifyTls: true, caPem: `\n${CA}\n` },
      ],
    ] as const) {
      const tightened = { ...editing(then), ...now };
      expect(keepsStoredSecret(tightened), JSON.stringify({ then, now })).toBe(true);
      expect(validateDraft(tightened).secret).toBeUndefined();
    }
  });
});

describe("inputFromDraft", () => {
  it("leaves the secret out when blank so the stored one is kept", () => {
    const input = inputFromDraft({ ...draft, id: "C1", secret: "", storedSecretFor: stored });
    expect(input).not.toHaveProperty("secret");
    expect(input.id).toBe("C1");
  });

  it("sends only the fields of the connection's kind", () => {
    expect(inputFromDraft(draft)).toHaveProperty("tokenId", "inventory");
    expect(inputFromDraft({ ...draft, kind: "VCD" })).not.toHaveProperty("tokenId");
    expect(inputFromDraft({ ...draft, kind: "VCD" })).toHaveProperty("isProvider", false);
    expect(inputFromDraft(draft)).toHaveProperty("lightPollSeconds", 15);
    expect(inputFromDraft({ ...draft, kind: "VCD" })).toHaveProperty("lightPollSeconds", 15);
  });
});

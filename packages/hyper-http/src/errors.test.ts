import { errorClassOf, errorText, serverText } from "@hyperlens/shared";
import { describe, expect, it } from "vitest";
import { HyperError, withHint } from "./errors.ts";

describe("HyperError", () => {
  it("names its class to whoever records a failed Test or sync", () => {
    const refused = new HyperError("The Proxmox server refused the login (HTTP 401)", {
      errorClass: "auth",
      source: "Proxmox",
      status: 401,
    });
    expect(errorClassOf(refused)).toBe("auth");
    expect(errorClassOf(withHint(refused, "user names end in @pam or @pve"))).toBe("auth");
  });
});

describe("withHint", () => {
  const refused = new HyperError("The vCenter server refused the login (HTTP 401)", {
    errorClass: "auth",
    source: "vCenter",
    status: 401,
    serverMessage: "Authentication required.",
    method: "POST",
    path: "/api/session",
    attempts: 1,
  });

  it("adds the advice to the message and as the hint, keeping every detail", () => {
    const hinted = withHint(refused, "user names include the identity source");
    expect(hinted.message).toBe(
      "The vCenter server refused the login (HTTP 401) (user names include the identity source)",
    );
    expect(hinted.hint).toBe("user names include the identity source");
    const kept = ["errorClass", "source", "status", "serverMessage", "method", "path", "attempts"];
    for (const key of kept as (keyof HyperError)[]) {
      expect(refused[key]).toBeDefined();
      expect(hinted[key]).toBe(refused[key]);
    }
    expect(hinted.cause).toBe(refused);
  });

  it("keeps the details of a failure without an answer too", () => {
    const unreachable = new HyperError("Could not reach the Cloud Director server", {
      errorClass: "tls",
      source: "Cloud Director",
      tlsReason: "the certificate is self-signed",
      code: "DEPTH_ZERO_SELF_SIGNED_CERT",
    });
    const hinted = withHint(unreachable, "add the server's CA");
    expect(hinted.tlsReason).toBe("the certificate is self-signed");
    expect(hinted.code).toBe("DEPTH_ZERO_SELF_SIGNED_CERT");
    expect(hinted.status).toBeUndefined();
  });
});

describe("a failure's text (docs/behaviour.md §11.4)", () => {
  const text = serverText("hyperLoginRefused", { source: "vCenter", http: "HTTP 401" });
  const refused = new HyperError(
    "The vCenter server did not accept the login (HTTP 401); check the user name and the secret",
    { errorClass: "auth", source: "vCenter", status: 401, text },
  );

  it("is the code beside the message, and advice added keeps it, nested", () => {
    expect(errorText(refused)).toEqual(text);
    const hinted = withHint(refused, "user names include the identity source");
    expect(errorText(hinted)).toEqual(
      serverText("hyperFailureHint", {
        failure: text,
        hint: "user names include the identity source",
      }),
    );
  });

  it("is none when the message no longer says what the text says", () => {
    const reworded = new HyperError("Login failed", {
      errorClass: "auth",
      source: "vCenter",
      text,
    });
    expect(errorText(reworded)).toBeUndefined();
    expect(errorText(new Error("plain"))).toBeUndefined();
  });
});

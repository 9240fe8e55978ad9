import { errorClassOf } from "@hyperlens/shared";
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

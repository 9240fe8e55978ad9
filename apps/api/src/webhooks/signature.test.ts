// The documented verification (docs/api.md "Verifying a delivery", docs/behaviour.md §14.22)
// accepts what Hyperlens signs and nothing altered.
import { describe, expect, it } from "vitest";
import { verifyHyperlensSignature } from "../testing/webhook-receiver.ts";
import { generateWebhookSecret, signatureHeader } from "./signature.ts";

const secret = generateWebhookSecret();
const body = JSON.stringify({ id: "e1", sequence: 7, type: "VM_ADDED", data: { cpu: 2 } });
const now = 1_800_000_000;

describe("webhook signatures (docs/behaviour.md §14.22)", () => {
  it("a delivery as signed verifies", () => {
    expect(
      verifyHyperlensSignature(secret, signatureHeader(secret, body, now), body, 300, now),
    ).toBe(true);
  });

  it("a tampered body, another secret, or a forged digest does not", () => {
    const header = signatureHeader(secret, body, now);
    expect(verifyHyperlensSignature(secret, header, body.replace("2", "64"), 300, now)).toBe(false);
    expect(verifyHyperlensSignature(generateWebhookSecret(), header, body, 300, now)).toBe(false);
    expect(verifyHyperlensSignature(secret, `t=${now},v1=${"0".repeat(64)}`, body, 300, now)).toBe(
      false,
    );
    expect(verifyHyperlensSignature(secret, `t=${now}`, body, 300, now)).toBe(false);
  });

  it("the timestamp is signed: moving it, or replaying outside the tolerance, fails", () => {
    const header = signatureHeader(secret, body, now);
    expect(
      verifyHyperlensSignature(secret, header.replace(`t=${now}`, `t=${now + 1}`), body, 300, now),
    ).toBe(false);
    expect(verifyHyperlensSignature(secret, header, body, 300, now + 301)).toBe(false);
    expect(verifyHyperlensSignature(secret, header, body, 300, now + 299)).toBe(true);
  });

  it("the digest is HMAC-SHA256 over `${t}.${body}`, hex", () => {
    // A fixed vector (computed with Python's hmac module) receivers in any language can check.
    expect(signatureHeader("whsec_test", "{}", 1700000000)).toBe(
      "t=1700000000,v1=35495024f4ef3f94e5a93e22221544c4b75e9a42300cd965ab81cb85cd994e91",
    );
  });
});

import fc from "fast-check";
import { MockAgent } from "undici";
import { describe, expect, it } from "vitest";
import { classifyStatus, extractServerMessage } from "./classify-status.ts";
import { createHyperClient } from "./client.ts";
import { checkHttpsUrl } from "./https-only.ts";
import { collectRequestSecrets, redactPath, redactSecrets } from "./redact.ts";
import { backoffDelayMs, resolveRetryPolicy } from "./retry-policy.ts";

describe("checkHttpsUrl", () => {
  it("accepts https and refuses http with the one message", () => {
    expect(checkHttpsUrl("https://pve.example:8006")).toBeNull();
    expect(checkHttpsUrl("http://pve.example:8006")).toBe(
      "Hyperlens only talks to hypervisors over https; the address http://pve.example:8006 is not https",
    );
    expect(checkHttpsUrl("pve.example")).toMatch(/not a valid URL/);
  });

  it("never echoes credentials written into the address", () => {
    const message = checkHttpsUrl("http://root:hunter22@pve.example/");
    expect(message).not.toContain("hunter22");
    expect(checkHttpsUrl("https://root:hunter22@pve.example/")).not.toContain("hunter22");
  });
});

describe("redaction", () => {
  it("masks secret-looking query values and keeps the rest", () => {
    expect(redactPath("/x?type=vm&password=p&access_token=t&Ticket=z")).toBe(
      "/x?type=vm&password=***&access_token=***&Ticket=***",
    );
    expect(redactPath("/plain")).toBe("/plain");
  });

  it("collects credential header parts and login form values", () => {
    const secrets = collectRequestSecrets(
      { Authorization: "PVEAPIToken=u@pve!ro=abcd-1234", accept: "application/json" },
      "username=root%40pam&password=pw-123",
    );
    expect(secrets).toContain("abcd-1234");
    expect(secrets).toContain("pw-123");
    expect(secrets).not.toContain("PVEAPIToken");
    expect(redactSecrets("got abcd-1234 and pw-123", secrets)).toBe("got *** and ***");
  });
});

describe("status classes", () => {
  it("maps statuses to classes and only 5xx/595 to retries", () => {
    expect(classifyStatus(401)).toEqual({ errorClass: "auth", isTransient: false });
    expect(classifyStatus(403)).toEqual({ errorClass: "permission", isTransient: false });
    expect(classifyStatus(501)).toEqual({ errorClass: "not_found", isTransient: false });
    expect(classifyStatus(429).isTransient).toBe(false);
    expect(classifyStatus(595)).toEqual({ errorClass: "transient", isTransient: true });
  });

  it("finds the server's words in Proxmox, vSphere and Director error bodies", () => {
    const answer = (body: string, statusText = "", headers = {}) => ({ body, statusText, headers });
    expect(
      extractServerMessage(
        answer('{"data":null,"message":"VM 101 is not running\\n"}', "x"),
        "Proxmox",
      ),
    ).toBe("VM 101 is not running");
    expect(
      extractServerMessage(answer('{"data":null}', "No QEMU guest agent configured"), "Proxmox"),
    ).toBe("No QEMU guest agent configured");
    expect(
      extractServerMessage(
        answer("", "authentication failure", { server: "pve-api-daemon/3.0" }),
        "Proxmox",
      ),
    ).toBe("authentication failure");
    expect(extractServerMessage(answer("", "Internal Server Error"), "Proxmox")).toBeUndefined();
    expect(
      extractServerMessage(
        answer('{"error_type":"NOT_FOUND","messages":[{"default_message":"VM missing"}]}'),
        "vCenter",
      ),
    ).toBe("VM missing");
    expect(
      extractServerMessage(
        answer(
          '<Error xmlns="x" majorErrorCode="403" minorErrorCode="ACCESS" message="Access &quot;denied&quot;"/>',
        ),
        "Cloud Director",
      ),
    ).toBe('Access "denied"');
    expect(
      extractServerMessage(
        answer('{"minorErrorCode":"BAD_REQUEST","message":"Invalid filter","stackTrace":null}'),
        "Cloud Director",
      ),
    ).toBe("Invalid filter");
  });

  it("echoes no text of an answer that is not its source's error shape", () => {
    const foreign = [
      { body: '{"message":"redis 7.2 on 10.0.0.5 says hello"}', statusText: "" },
      { body: '{"messages":[{"default_message":"redis says hello"}]}', statusText: "" },
      { body: '<Error message="redis says hello"/>', statusText: "" },
      { body: "", statusText: "redis says hello" },
    ];
    for (const source of ["Proxmox", "vCenter", "Cloud Director"] as const) {
      for (const { body, statusText } of foreign) {
        expect(
          extractServerMessage({ body, statusText, headers: {} }, source),
          `${source} ${body}`,
        ).toBeUndefined();
      }
    }
  });
});

describe("backoff", () => {
  it("stays within [0, min(max, base·2^(n-1))] for any attempt and random value", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 30 }),
        fc.double({ min: 0, max: 0.999999, noNaN: true }),
        (attempt, r) => {
          const policy = resolveRetryPolicy({ baseDelayMs: 300, maxDelayMs: 5000 });
          const delay = backoffDelayMs(policy, attempt, () => r);
          return delay >= 0 && delay <= Math.min(5000, 300 * 2 ** (attempt - 1));
        },
      ),
    );
  });
});

describe("injected dispatcher", () => {
  it("is the transport used for every call (the one place a test substitutes it)", async () => {
    const mock = new MockAgent();
    mock.disableNetConnect();
    mock
      .get("https://pve.example:8006")
      .intercept({ path: "/api2/json/version", method: "GET" })
      .reply(200, { data: 1 });
    const client = createHyperClient({
      connectionId: "m",
      source: "Proxmox",
      baseUrl: "https://pve.example:8006",
      dispatcher: mock,
    });
    expect((await client.request({ method: "GET", path: "/api2/json/version" })).json()).toEqual({
      data: 1,
    });
    await client.close();
    await mock.close();
  });
});

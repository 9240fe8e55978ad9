import { MockAgent } from "undici";
import { describe, expect, it } from "vitest";
import { createHyperClient } from "./client.ts";
import { connectorHttp } from "./connector-http.ts";
import type { HyperLogger } from "./observability.ts";

const logger = (): HyperLogger => ({ info() {}, warn() {} });
const login = { method: "POST", pathPattern: /^\/api\/session$/ } as const;

describe("connectorHttp", () => {
  it("uses a ready client as it is and leaves it to its owner", async () => {
    const ready = createHyperClient({
      connectionId: "c1",
      source: "vCenter",
      baseUrl: "https://vc.example",
    });
    const given = logger();
    const resolved = connectorHttp(ready, { source: "vCenter", allowedWrites: [], logger: given });
    expect(resolved.http).toBe(ready);
    expect(resolved.ownsHttp).toBe(false);
    expect(resolved.builtFrom).toBeUndefined();
    expect(resolved.logger).toBe(given);
    await ready.close();
  });

  it("builds a client from options with the connector's source and login allowlist, and owns it", async () => {
    const mock = new MockAgent();
    mock.disableNetConnect();
    mock
      .get("https://vc.example")
      .intercept({ path: "/api/session", method: "POST" })
      .reply(201, '"token"');
    const options = { connectionId: "c2", baseUrl: "https://vc.example", dispatcher: mock };
    const resolved = connectorHttp(options, { source: "vCenter", allowedWrites: [login] });
    expect(resolved.ownsHttp).toBe(true);
    expect(resolved.builtFrom).toBe(options);
    expect(resolved.http.source).toBe("vCenter");
    expect(resolved.http.connectionId).toBe("c2");
    const answer = await resolved.http.request({
      method: "POST",
      path: "/api/session",
      purpose: "login",
    });
    expect(answer.status).toBe(201);
    await resolved.http.close();
    await mock.close();
  });

  it("takes the connector's logger first, then the options' one, else a silent one", async () => {
    const mine = logger();
    const theirs = logger();
    const options = { connectionId: "c3", baseUrl: "https://vc.example", logger: theirs };
    const fill = { source: "Cloud Director", allowedWrites: [] } as const;
    const first = connectorHttp(options, { ...fill, logger: mine });
    const second = connectorHttp(options, fill);
    const third = connectorHttp({ connectionId: "c4", baseUrl: "https://vc.example" }, fill);
    expect(first.logger).toBe(mine);
    expect(second.logger).toBe(theirs);
    expect(() => third.logger.warn({ msg: "dropped" })).not.toThrow();
    await Promise.all([first, second, third].map((resolved) => resolved.http.close()));
  });
});

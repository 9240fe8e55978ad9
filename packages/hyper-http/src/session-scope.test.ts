import { describe, expect, it } from "vitest";
import type { HyperClient } from "./client.ts";
import { createSessionScope } from "./session-scope.ts";

function setup(options: { logoutFails?: boolean; loginFails?: boolean; ownsHttp?: boolean } = {}) {
  const events: string[] = [];
  const warnings: Record<string, unknown>[] = [];
  const http: HyperClient = {
    connectionId: "conn-7",
    source: "vCenter",
    request: () => Promise.reject(new Error("no request expected")),
    limits: { perConnection: 4, perNode: undefined },
    close: async () => {
      events.push("http closed");
    },
  };
  const scope = createSessionScope({
    session: {
      login: async () => {
        events.push("login");
        if (options.loginFails) throw new Error("login refused");
      },
      logout: async () => {
        events.push("logout");
        if (options.logoutFails) throw new Error("HTTP 500 on DELETE /api/session");
      },
    },
    source: "vCenter",
    http,
    ownsHttp: options.ownsHttp ?? false,
    logger: { info() {}, warn: (entry) => warnings.push(entry) },
  });
  return { scope, events, warnings };
}

describe("session scope (docs/behaviour.md §4 step 5, §5)", () => {
  it("logs in before the work and out after it", async () => {
    const { scope, events } = setup();
    const result = await scope.run(async () => {
      events.push("work");
      return 42;
    });
    expect(result).toBe(42);
    expect(events).toEqual(["login", "work", "logout"]);
  });

  it("logs out when the work throws, and the work's error is what rejects", async () => {
    const { scope, events } = setup();
    const run = scope.run(async () => {
      events.push("work");
      throw new Error("page 3 failed");
    });
    await expect(run).rejects.toThrow("page 3 failed");
    expect(events).toEqual(["login", "work", "logout"]);
  });

  it("logs out when the login itself fails part-way", async () => {
    const { scope, events } = setup({ loginFails: true });
    await expect(scope.run(async () => events.push("work"))).rejects.toThrow("login refused");
    expect(events).toEqual(["login", "logout"]);
  });

  it("nested calls share the outer session and only the outermost logs out", async () => {
    const { scope, events } = setup();
    await scope.run(async () => {
      await scope.run(async () => {
        events.push("inner work");
      });
      events.push("after inner");
      await expect(
        scope.run(async () => {
          throw new Error("inner failure");
        }),
      ).rejects.toThrow("inner failure");
      events.push("after failed inner");
    });
    expect(events).toEqual(["login", "inner work", "after inner", "after failed inner", "logout"]);
  });

  it("a call after the outermost one ended (even by a throw) opens a new session", async () => {
    const { scope, events } = setup();
    await expect(
      scope.run(async () => {
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    await scope.run(async () => {});
    expect(events).toEqual(["login", "logout", "login", "logout"]);
  });

  it("a failed logout is a warning naming the source and the connection, never thrown", async () => {
    const { scope, warnings } = setup({ logoutFails: true });
    await expect(scope.run(async () => "inventory")).resolves.toBe("inventory");
    expect(warnings).toEqual([
      {
        msg: "vCenter logout failed; the session will expire on its own",
        connectionId: "conn-7",
        error: "HTTP 500 on DELETE /api/session",
      },
    ]);
  });

  it("a failed logout does not hide the work's own error", async () => {
    const { scope, warnings } = setup({ logoutFails: true });
    const run = scope.run(async () => {
      throw new Error("the real failure");
    });
    await expect(run).rejects.toThrow("the real failure");
    expect(warnings).toHaveLength(1);
  });

  it("close() logs out, then closes the client only when it was built here", async () => {
    const owned = setup({ ownsHttp: true, logoutFails: true });
    await owned.scope.close();
    expect(owned.events).toEqual(["logout", "http closed"]);
    expect(owned.warnings).toHaveLength(1);

    const injected = setup({ ownsHttp: false });
    await injected.scope.close();
    expect(injected.events).toEqual(["logout"]);
  });
});

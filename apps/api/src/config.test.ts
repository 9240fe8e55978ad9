import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config.ts";

describe("configuration", () => {
  it("starts on the embedded database in ./data on port 4000 by default", () => {
    const config = loadConfig({});
    expect(config.port).toBe(4000);
    expect(config.database).toMatchObject({ kind: "pglite" });
    expect(config.dataDir).toMatch(/\/data$/);
  });

  it("uses PostgreSQL when DATABASE_URL is set", () => {
    const config = loadConfig({ DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/test" });
    expect(config.database).toEqual({
      kind: "postgres",
      url: "postgresql://postgres@127.0.0.1:5432/test",
      pool: { size: 10, timeoutMs: 5_000 },
    });
  });

  it("sizes each replica's PostgreSQL pool from HYPERLENS_DATABASE_POOL_*", () => {
    const config = loadConfig({
      DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/test",
      HYPERLENS_DATABASE_POOL_SIZE: "25",
      HYPERLENS_DATABASE_POOL_TIMEOUT_SECONDS: "0",
    });
    expect(config.database).toMatchObject({ pool: { size: 25, timeoutMs: 0 } });
  });

  it("refuses a pool size out of range and Prisma's pool parameters in the URL", () => {
    expect(() => loadConfig({ HYPERLENS_DATABASE_POOL_SIZE: "0" })).toThrow(
      /HYPERLENS_DATABASE_POOL_SIZE.*between 1 and 1000/,
    );
    expect(() =>
      loadConfig({ DATABASE_URL: "postgresql://db:5432/hyperlens?connection_limit=40" }),
    ).toThrow(/connection_limit and pool_timeout are not read from the URL/);
  });

  it("lists every wrong variable in one message", () => {
    const env = {
      PORT: "eighty",
      DATABASE_URL: "mysql://x",
      REDIS_URL: "http://r",
      NODE_ENV: "prod",
    };
    expect(() => loadConfig(env)).toThrow(ConfigError);
    try {
      loadConfig(env);
    } catch (error) {
      const message = (error as Error).message;
      expect(message).toContain("PORT: must be a number");
      expect(message).toContain("DATABASE_URL: must be a URL like postgresql://");
      expect(message).toContain("REDIS_URL: must be a URL like redis://");
      expect(message).toContain("NODE_ENV");
    }
  });

  it("reads identity providers from HYPERLENS_IDENTITY_PROVIDERS, naming each wrong field without echoing secrets", () => {
    const good = loadConfig({
      HYPERLENS_IDENTITY_PROVIDERS: JSON.stringify([
        {
          slug: "corp",
          kind: "OIDC",
          displayName: "Corp",
          settings: { issuer: "https://sso.example", clientId: "hyperlens" },
          secret: "s3cret-value",
        },
      ]),
    });
    expect(good.identityProviders).toMatchObject([
      { slug: "corp", source: "ENVIRONMENT", isEnabled: true, createJustInTime: false },
    ]);
    expect(good.identityProviders[0]?.secret()).toBe("s3cret-value");

    const bad = () =>
      loadConfig({
        HYPERLENS_IDENTITY_PROVIDERS: JSON.stringify([
          {
            slug: "Corp!",
            kind: "OIDC",
            displayName: "Corp",
            settings: { issuer: "http://sso.example", clientId: "x" },
            secret: "s3cret-value",
            groupMappings: [{ group: "g", capabilities: ["FLY"] }],
          },
        ]),
      });
    expect(bad).toThrow(ConfigError);
    const message = (() => {
      try {
        bad();
      } catch (error) {
        return (error as Error).message;
      }
    })();
    expect(message).toContain("HYPERLENS_IDENTITY_PROVIDERS: [0.slug] must be 1-32 lower-case");
    expect(message).toContain("[0.settings.issuer] must be the issuer's https address");
    expect(message).toContain("[0.groupMappings.0.capabilities.0] is not a capability");
    expect(message).not.toContain("s3cret-value");
    expect(() => loadConfig({ HYPERLENS_IDENTITY_PROVIDERS: "{nope" })).toThrow(
      /HYPERLENS_IDENTITY_PROVIDERS: must be a JSON array/,
    );
    const twice = {
      slug: "a",
      kind: "OIDC",
      displayName: "A",
      settings: { issuer: "https://a.example", clientId: "a" },
    };
    expect(() =>
      loadConfig({ HYPERLENS_IDENTITY_PROVIDERS: JSON.stringify([twice, twice]) }),
    ).toThrow(/the slug a is used twice/);
  });

  it("treats an empty variable as unset", () => {
    expect(loadConfig({ DATABASE_URL: "", PORT: "" }).database.kind).toBe("pglite");
  });
});

describe("trusted proxies", () => {
  it("trusts no proxy by default, and reads IPv4 and IPv6 CIDRs and bare addresses", () => {
    expect(loadConfig({}).trustedProxies).toEqual([]);
    expect(
      loadConfig({ HYPERLENS_TRUSTED_PROXIES: " 10.0.0.0/8, fd00::/8,192.0.2.7 " }).trustedProxies,
    ).toEqual([
      { address: "10.0.0.0", prefix: 8, family: "ipv4" },
      { address: "fd00::", prefix: 8, family: "ipv6" },
      { address: "192.0.2.7", prefix: 32, family: "ipv4" },
    ]);
  });

  it("names every entry that is not a CIDR", () => {
    expect(() =>
      loadConfig({
        HYPERLENS_TRUSTED_PROXIES: "10.0.0.0/8, caddy, 10.0.0.0/33, fd00::/129, 1.2.3.4/x",
      }),
    ).toThrow(
      "HYPERLENS_TRUSTED_PROXIES: must be comma-separated CIDRs like 10.0.0.0/8 or fd00::/8; not a CIDR: caddy, 10.0.0.0/33, fd00::/129, 1.2.3.4/x",
    );
  });
});

describe("scheduling settings", () => {
  it("schedules in-process with a 60 s lease and a 30 s shutdown grace by default", () => {
    expect(loadConfig({})).toMatchObject({
      isSchedulerOn: true,
      schedulerRefreshMs: 15_000,
      syncJitterMs: 30_000,
      syncLeaseMs: 60_000,
      shutdownGraceMs: 30_000,
      redisPrefix: "hyperlens:",
    });
  });

  it("names a lease too short to survive a heartbeat and a prefix with a space", () => {
    expect(() =>
      loadConfig({ HYPERLENS_SYNC_LEASE_SECONDS: "1", HYPERLENS_REDIS_PREFIX: "a b" }),
    ).toThrow(
      /HYPERLENS_REDIS_PREFIX: must be 1-64 letters[\s\S]*HYPERLENS_SYNC_LEASE_SECONDS: must be between 2 and 3600 seconds/,
    );
  });
});

describe("production mode", () => {
  it("refuses demo stand-ins in production, naming both settings", () => {
    expect(() => loadConfig({ NODE_ENV: "production", HYPERLENS_DEMO: "1" })).toThrow(
      /HYPERLENS_DEMO: .*NODE_ENV=production/,
    );
    expect(loadConfig({ NODE_ENV: "production" }).isDemo).toBe(false);
    expect(loadConfig({ NODE_ENV: "development", HYPERLENS_DEMO: "1" }).isDemo).toBe(true);
  });
});

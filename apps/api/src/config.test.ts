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
    });
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

  it("treats an empty variable as unset", () => {
    expect(loadConfig({ DATABASE_URL: "", PORT: "" }).database.kind).toBe("pglite");
  });
});

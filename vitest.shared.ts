import { createRequire } from "node:module";
import { defineConfig } from "vitest/config";

const require = createRequire(import.meta.url);

/** One vitest setup for every package: one graphql instance, timeouts sized for 2 cores. */
export const sharedConfig = defineConfig({
  resolve: { alias: { graphql: require.resolve("graphql") } },
  test: { environment: "node", testTimeout: 30_000, hookTimeout: 60_000 },
});

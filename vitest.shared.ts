import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { defineConfig } from "vitest/config";

const require = createRequire(import.meta.url);

/** One vitest setup for every package: one graphql instance, timeouts sized for 2 cores. */
export const sharedConfig = defineConfig({
  resolve: { alias: { graphql: require.resolve("graphql") } },
  test: {
    environment: "node",
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The suite-wide secret-leak check (issue 8): runs after every test file of every package.
    setupFiles: [fileURLToPath(new URL("./vitest.secret-leak.ts", import.meta.url))],
  },
});

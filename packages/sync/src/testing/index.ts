// Test helpers of @hyperlens/sync, imported as @hyperlens/sync/testing (never by shipped code).
export * from "./builders.ts";

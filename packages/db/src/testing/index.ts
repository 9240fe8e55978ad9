// Test helpers of @hyperlens/db, imported as @hyperlens/db/testing (never by shipped code).
export * from "./test-database.ts";

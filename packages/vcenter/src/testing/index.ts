// Test helpers of @hyperlens/vcenter, imported as @hyperlens/vcenter/testing (never by shipped code).
export * from "./fixtures.ts";
export * from "./setup.ts";

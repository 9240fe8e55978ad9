// Test helpers of @hyperlens/vcd, imported as @hyperlens/vcd/testing (never by shipped code).
export * from "./acme-director.ts";
export * from "./director-faults.ts";
export * from "./fixtures.ts";

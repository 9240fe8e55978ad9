// Test helpers of @hyperlens/vcd, imported as @hyperlens/vcd/testing (never by shipped code).
export * from "./fake-vcd-server.ts";
export * from "./fixtures.ts";

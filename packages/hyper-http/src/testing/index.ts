// Test helpers of @hyperlens/hyper-http, imported as @hyperlens/hyper-http/testing (never by shipped code).
export * from "./hostile-answers.ts";
export * from "./http-fixture.ts";
export * from "./hyper-failure.ts";
export * from "./recording-dispatcher.ts";
export * from "./test-certificates.ts";
export * from "./test-https-server.ts";

// Setup file of every vitest project: after each test file, no secret the tests stored may appear
// in a GraphQL response or a log line the tests collected (issue 8). Cheap: string search only.
import { afterAll, beforeAll } from "vitest";
import {
  findLeaks,
  registerSecret,
  secretLeakRegistry,
} from "./apps/api/src/testing/secret-registry.ts";

// The stand-ins' default credentials (packages/standins: DEFAULT_TOKEN, DEFAULT_USER, the
// Director and vCenter users) — literal here so every package need not load the stand-ins.
const STANDIN_SECRETS = ["5f0c8e4e-8f5b-4c1e-9a57-2d3b1f6c7a90", "standin-password"];

beforeAll(() => {
  const registry = secretLeakRegistry();
  registry.secrets.clear();
  registry.bodies.length = 0;
  registry.logs.length = 0;
  for (const secret of STANDIN_SECRETS) registerSecret(secret);
});

afterAll(() => {
  const leaks = findLeaks();
  // TRAP: issue 8 — a secret in a response or a log line is a leak; the run must fail, not warn.
  if (leaks.length > 0) throw new Error(`Secret leak:\n${leaks.slice(0, 10).join("\n")}`);
});

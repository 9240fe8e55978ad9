// docs/api.md's ```graphql examples stay true: each is valid against the schema, and each query
// or mutation answers as the page says when sent to a test server holding a synced connection.
import { readFileSync } from "node:fs";
import path from "node:path";
import { type DocumentNode, Kind, parse, validate } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { neutralVm, seedConnection } from "../testing/seed-inventory.ts";
import { startTestAppAsAdmin, type TestApp } from "../testing/test-app.ts";
import { schema } from "./index.ts";

/** One ```graphql block of docs/api.md with the directives on its comment lines. */
interface DocExample {
  name: string;
  document: DocumentNode;
  text: string;
  variables: Record<string, unknown>;
  /** `# answers: CODE`: the first error's code; absent means no errors. */
  answers: string | undefined;
  /** `# caller: anonymous` sends no session; by default an administrator asks. */
  anonymous: boolean;
}

const directive = (text: string, name: string) =>
  text.match(new RegExp(`^# ${name}: (.+)$`, "m"))?.[1]?.trim();

function docExamples(): DocExample[] {
  const markdown = readFileSync(path.join(import.meta.dirname, "../../../../docs/api.md"), "utf8");
  return [...markdown.matchAll(/^```graphql\n([\s\S]*?)^```$/gm)].map(([, text = ""], index) => {
    const document = parse(text);
    const operation = document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);
    return {
      name: operation?.name?.value ?? `example ${index + 1}`,
      document,
      text,
      variables: JSON.parse(directive(text, "variables") ?? "{}"),
      answers: directive(text, "answers"),
      anonymous: directive(text, "caller") === "anonymous",
    };
  });
}

const examples = docExamples();
const operationOf = (example: DocExample) =>
  example.document.definitions.find((d) => d.kind === Kind.OPERATION_DEFINITION);

let app: TestApp;
let admin: string;

beforeAll(async () => {
  ({ app, admin } = await startTestAppAsAdmin());
  await seedConnection(app.services, "PROXMOX", "pve", [
    neutralVm("100", { name: "web-01", location: { nodeName: "pve1" } }),
    neutralVm("101", { name: "db-01", location: { nodeName: "pve1" } }),
    neutralVm("102", { name: "web-02", state: "STOPPED", location: { nodeName: "pve1" } }),
  ]);
});

afterAll(async () => {
  await app?.close();
});

/** Mutations whose answer is meant to carry a new webhook signing secret, shown that once. */
const SHOWN_ONCE = /\b(createWebhookEndpoint|rotateWebhookSecret)\s*\(/;
const showsSecretOnce = (text: string) => SHOWN_ONCE.test(text);

/** Sent past the suite's leak check, which would take a secret shown once by design for a leak. */
async function uncaptured(
  query: string,
  variables: Record<string, unknown> | undefined,
  headers: Record<string, string>,
): Promise<{ body: { data?: unknown; errors?: { extensions?: { code?: string } }[] } }> {
  const res = await fetch(`${app.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: JSON.stringify({ query, variables }),
  });
  return { body: await res.json() };
}

describe("docs/api.md examples", () => {
  it("show a query, a mutation, a subscription and an error of each documented kind", () => {
    const kinds = new Set(examples.map((example) => operationOf(example)?.operation));
    expect([...kinds].sort()).toEqual(["mutation", "query", "subscription"]);
    expect(examples.map((example) => example.answers).filter(Boolean)).toEqual(
      expect.arrayContaining(["UNAUTHENTICATED", "BAD_USER_INPUT", "QUERY_TOO_COMPLEX"]),
    );
  });

  it.each(examples)("$name is valid against the schema", (example) => {
    expect(validate(schema, example.document).map((error) => error.message)).toEqual([]);
  });

  // Subscriptions stream; their validity is all a one-shot request can prove.
  const sent = examples.filter((example) => operationOf(example)?.operation !== "subscription");
  it.each(sent)("$name answers as docs/api.md says", async (example) => {
    const headers: Record<string, string> = example.anonymous ? {} : { cookie: admin };
    const res = showsSecretOnce(example.text)
      ? await uncaptured(example.text, example.variables, headers)
      : await app.graphql(example.text, example.variables, headers);
    const codes = (res.body.errors ?? []).map((error) => error.extensions?.code);
    if (example.answers) {
      expect(codes[0]).toBe(example.answers);
    } else {
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data).toBeTruthy();
    }
  });
});

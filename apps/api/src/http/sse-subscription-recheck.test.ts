// Subscriptions over server-sent events (graphql-yoga's text/event-stream on /graphql) end when
// their credential stops authenticating, as WebSocket subscriptions are closed with 4401.
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestAppAsAdmin, type TestApp } from "../testing/test-app.ts";

const SUBSCRIBE = "subscription { syncProgress { type } }";
const CREATE_TOKEN = `mutation { createApiToken(name: "sse", capabilities: [VIEW_INVENTORY]) {
  ... on MutationCreateApiTokenSuccess { data { token apiToken { id } } } } }`;
/** Longer than several re-checks (200 ms) and far shorter than the test's own time-out. */
const WAIT_FOR_END_MS = 3_000;

let app: TestApp;
let admin: string;
beforeAll(async () => {
  ({ app, admin } = await startTestAppAsAdmin({ subscriptionRecheckMs: 200 }));
});
afterAll(async () => app?.close());

/** An open SSE subscription: everything it has sent so far, and whether the server ended it. */
async function openSse(headers: Record<string, string>) {
  const abort = new AbortController();
  const res = await fetch(`${app.url}/graphql`, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream", ...headers },
    body: JSON.stringify({ query: SUBSCRIBE }),
    signal: abort.signal,
  });
  expect(res.status).toBe(200);
  expect(res.headers.get("content-type")).toContain("text/event-stream");
  const reader = res.body?.getReader();
  if (!reader) throw new Error("the SSE response has no body");
  let text = "";
  const ended = (async () => {
    const decoder = new TextDecoder();
    for (;;) {
      const chunk = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (chunk.done) return true;
      text += decoder.decode(chunk.value, { stream: true });
    }
  })();
  return {
    text: () => text,
    /** True when the server ended the stream within WAIT_FOR_END_MS. */
    endsSoon: () =>
      Promise.race([
        ended,
        new Promise<false>((resolve) => setTimeout(() => resolve(false), WAIT_FOR_END_MS)),
      ]),
    close: () => abort.abort(),
  };
}

/** Lets a few re-checks pass, so a stream that ends did so because of what the test did next. */
const severalRechecks = () => new Promise((resolve) => setTimeout(resolve, 700));

describe("an SSE subscription", () => {
  it("ends with UNAUTHENTICATED once its API token is revoked", async () => {
    const created = await app.graphql<{
      createApiToken: { data: { token: string; apiToken: { id: string } } };
    }>(CREATE_TOKEN, {}, { cookie: admin });
    const { token, apiToken } = created.body.data?.createApiToken.data ?? {};
    if (!token || !apiToken) throw new Error(JSON.stringify(created.body));
    const stream = await openSse({ authorization: `Bearer ${token}` });
    try {
      await severalRechecks();
      expect(stream.text()).not.toContain("UNAUTHENTICATED");
      const revoked = await app.graphql(
        "mutation($id: ID!) { revokeApiToken(id: $id) }",
        { id: apiToken.id },
        { cookie: admin },
      );
      expect(revoked.body.data).toEqual({ revokeApiToken: true });
      expect(await stream.endsSoon()).toBe(true);
      expect(stream.text()).toContain("UNAUTHENTICATED");
      expect(stream.text()).toContain("event: complete");
    } finally {
      stream.close();
    }
  });

  it("ends with UNAUTHENTICATED once its session signs out", async () => {
    const viewer = await app.signedInAs("sse-viewer");
    const stream = await openSse({ cookie: viewer });
    try {
      await severalRechecks();
      expect(stream.text()).not.toContain("UNAUTHENTICATED");
      const signedOut = await app.graphql("mutation { signOut }", {}, { cookie: viewer });
      expect(signedOut.body.data).toEqual({ signOut: true });
      expect(await stream.endsSoon()).toBe(true);
      expect(stream.text()).toContain("UNAUTHENTICATED");
    } finally {
      stream.close();
    }
  });

  it("ends once its user is disabled", async () => {
    const viewer = await app.signedInAs("sse-disabled");
    const stream = await openSse({ cookie: viewer });
    try {
      await severalRechecks();
      await app.services.prisma.user.update({
        where: { username: "sse-disabled" },
        data: { disabledAt: new Date() },
      });
      expect(await stream.endsSoon()).toBe(true);
      expect(stream.text()).toContain("UNAUTHENTICATED");
    } finally {
      stream.close();
    }
  });

  it("ends with FORBIDDEN once its user loses the view capability", async () => {
    const viewer = await app.signedInAs("sse-demoted");
    const stream = await openSse({ cookie: viewer });
    try {
      await severalRechecks();
      await app.services.prisma.user.update({
        where: { username: "sse-demoted" },
        data: { capabilities: [] },
      });
      expect(await stream.endsSoon()).toBe(true);
      expect(stream.text()).toContain("FORBIDDEN");
    } finally {
      stream.close();
    }
  });

  it("stays open and delivers events while its credential is valid", async () => {
    const viewer = await app.signedInAs("sse-steady");
    const stream = await openSse({ cookie: viewer });
    try {
      await severalRechecks();
      app.services.events.publish("sync:all", {
        connectionId: "c",
        syncRunId: null,
        at: new Date().toISOString(),
        event: { type: "phase", phase: "reading" },
      });
      expect(await stream.endsSoon()).toBe(false);
      expect(stream.text()).toContain('{"syncProgress":{"type":"phase"}}');
      expect(stream.text()).not.toContain("errors");
    } finally {
      stream.close();
    }
  });
});

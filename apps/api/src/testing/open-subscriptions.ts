// Subscriptions held open the way clients hold them: server-sent events (a streamed POST) and a
// graphql-ws WebSocket, each with a session cookie or an API token, and whether the server ended
// them (and how).
import WebSocket from "ws";

const SUBSCRIBE = "subscription { syncProgress { type } }";

/** An open subscription over either transport. */
export interface OpenSubscription {
  /** Everything received so far (SSE text; WebSocket messages and the close code and reason). */
  text(): string;
  /** True when the server ended it within `ms`. */
  endsWithin(ms: number): Promise<boolean>;
  close(): void;
}

/** Credentials a client presents: a session cookie or a bearer token. */
export type ClientCredentials = { cookie: string } | { token: string };

function race(ended: Promise<unknown>, ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    ended.then(() => true),
    new Promise<boolean>((resolve) => {
      timer = setTimeout(() => resolve(false), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

/** A subscription over server-sent events on `${url}/graphql`. */
export async function openSse(
  url: string,
  credentials: ClientCredentials,
  query = SUBSCRIBE,
): Promise<OpenSubscription> {
  const abort = new AbortController();
  const res = await fetch(`${url}/graphql`, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "text/event-stream",
      ...("cookie" in credentials
        ? { cookie: credentials.cookie }
        : { authorization: `Bearer ${credentials.token}` }),
    },
    body: JSON.stringify({ query }),
    signal: abort.signal,
  });
  const reader = res.body?.getReader();
  if (res.status !== 200 || !reader) throw new Error(`SSE refused: ${res.status}`);
  let text = "";
  const ended = (async () => {
    const decoder = new TextDecoder();
    for (;;) {
      const chunk = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (chunk.done) return;
      text += decoder.decode(chunk.value, { stream: true });
    }
  })();
  return { text: () => text, endsWithin: (ms) => race(ended, ms), close: () => abort.abort() };
}

/** A subscription over a graphql-ws WebSocket on `${url}/graphql`, acknowledged and subscribed. */
export async function openWebSocket(
  url: string,
  credentials: ClientCredentials,
  query = SUBSCRIBE,
): Promise<OpenSubscription> {
  const socket = new WebSocket(`${url.replace(/^http/, "ws")}/graphql`, "graphql-transport-ws", {
    headers: "cookie" in credentials ? { cookie: credentials.cookie } : {},
  });
  let text = "";
  const ended = new Promise<void>((resolve) =>
    socket.on("close", (code, reason) => {
      text += `\nclose ${code} ${reason.toString()}`;
      resolve();
    }),
  );
  const acknowledged = new Promise<void>((resolve, reject) => {
    socket.on("message", (data) => {
      const message = data.toString();
      text += `${message}\n`;
      if (JSON.parse(message).type === "connection_ack") resolve();
    });
    socket.on("error", reject);
    void ended.then(() => reject(new Error(`WebSocket closed before ack: ${text}`)));
  });
  await new Promise((resolve, reject) => {
    socket.once("open", resolve);
    socket.once("error", reject);
  });
  socket.send(
    JSON.stringify({
      type: "connection_init",
      payload: "token" in credentials ? { authorization: `Bearer ${credentials.token}` } : {},
    }),
  );
  await acknowledged;
  socket.send(JSON.stringify({ id: "1", type: "subscribe", payload: { query } }));
  return { text: () => text, endsWithin: (ms) => race(ended, ms), close: () => socket.close() };
}

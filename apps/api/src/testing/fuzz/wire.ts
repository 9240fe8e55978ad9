// Puts a generated request on the wire the way its sender would: the web app (session cookie, JSON,
// urql's Accept header), an integrator (Bearer token), or someone sending what they like.
import { stringify } from "./input-values.ts";
import type { FuzzRequest } from "./mutation-requests.ts";

/** The credentials of the signed-in administrator for one request. */
export interface FuzzCredentials {
  /** `Cookie` header value of a live session. */
  cookie: string;
  /** An API token holding every capability. */
  token: string;
}

/** One HTTP request, ready for `fetch`. */
export interface WireRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  body: string | Blob | undefined;
  /** Bytes of the body, for the body-cap expectation. */
  bodyBytes: number;
}

// What urql's fetchExchange sends.
const WEB_APP_ACCEPT =
  "application/graphql-response+json, application/graphql+json, application/json, text/event-stream, multipart/mixed";

function authHeaders(request: FuzzRequest, credentials: FuzzCredentials): Record<string, string> {
  if (request.auth === "session") return { cookie: credentials.cookie, accept: WEB_APP_ACCEPT };
  if (request.auth === "token") return { authorization: `Bearer ${credentials.token}` };
  return {};
}

/** Builds the HTTP request for `request` against the server at `baseUrl`. */
export function toWire(
  request: FuzzRequest,
  baseUrl: string,
  credentials: FuzzCredentials,
): WireRequest {
  const headers = authHeaders(request, credentials);
  const params = {
    query: request.query,
    variables: request.variables,
    ...(request.operationName === undefined ? {} : { operationName: request.operationName }),
  };
  const json = stringify(params);
  const url = `${baseUrl}/graphql`;
  const post = (contentType: string | undefined, body: string | Blob): WireRequest => ({
    method: "POST",
    url,
    headers: contentType ? { ...headers, "content-type": contentType } : headers,
    body,
    bodyBytes: typeof body === "string" ? Buffer.byteLength(body) : body.size,
  });
  switch (request.encoding) {
    case "json":
      return post("application/json", json);
    case "json-wrong-charset":
      return post("application/json; charset=utf-16", json);
    case "invalid-json":
      return post("application/json", json.slice(0, Math.floor(request.cut * (json.length - 1))));
    case "odd-json":
      return post("application/json", stringify(request.oddBody));
    case "form": {
      const form = new URLSearchParams({
        query: request.query,
        variables: stringify(request.variables),
      });
      return post("application/x-www-form-urlencoded", form.toString());
    }
    case "text-plain":
      return post("text/plain", json);
    case "multipart": {
      const boundary = "----fuzz";
      const body = `--${boundary}\r\nContent-Disposition: form-data; name="operations"\r\n\r\n${json}\r\n--${boundary}--\r\n`;
      return post(`multipart/form-data; boundary=${boundary}`, body);
    }
    case "no-content-type":
      // A Blob without a type, so fetch adds no Content-Type of its own.
      return post(undefined, new Blob([json]));
    case "application-graphql":
      return post("application/graphql", request.query);
    case "xml":
      return post("application/xml", `<query><![CDATA[${request.query}]]></query>`);
    case "get": {
      const search = new URLSearchParams({
        query: request.query,
        variables: stringify(request.variables),
      });
      return {
        method: "GET",
        url: `${url}?${search.toString()}`,
        headers: { ...headers, "x-graphql-yoga-csrf": "1" },
        body: undefined,
        bodyBytes: 0,
      };
    }
    case "put":
      return { ...post("application/json", json), method: "PUT" };
  }
}

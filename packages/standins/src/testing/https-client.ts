import { readFileSync } from "node:fs";
import { request } from "node:https";

/** A response as the tests see it, status line and headers included. */
export interface RawResponse {
  status: number;
  reason: string;
  /** Header names as sent, with values. */
  headers: Array<[string, string]>;
  body: string;
}

/** Options of {@link call}. */
export interface CallOptions {
  method?: string;
  headers?: Record<string, string>;
  body?: string;
  /** CA to trust; omit to rely on the system CAs only. */
  ca?: string;
  timeoutMs?: number;
}

/** One HTTPS request with node:https (no pooling), resolved with the raw response. */
export function call(url: string, options: CallOptions = {}): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      { method: options.method ?? "GET", headers: options.headers, ca: options.ca, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", reject);
        res.on("end", () => {
          const headers: Array<[string, string]> = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2) {
            headers.push([res.rawHeaders[i] ?? "", res.rawHeaders[i + 1] ?? ""]);
          }
          resolve({
            status: res.statusCode ?? 0,
            reason: res.statusMessage ?? "",
            headers,
            body: Buffer.concat(chunks).toString("utf8"),
          });
        });
      },
    );
    req.on("error", reject);
    if (options.timeoutMs !== undefined) {
      req.setTimeout(options.timeoutMs, () => req.destroy(new Error("client timeout")));
    }
    if (options.body !== undefined) req.write(options.body);
    req.end();
  });
}

/** A header value by case-insensitive name. */
export function header(response: RawResponse, name: string): string | undefined {
  return response.headers.find(([key]) => key.toLowerCase() === name.toLowerCase())?.[1];
}

const FIXTURES = new URL("../../../../fixtures/proxmox/", import.meta.url);

/** A recorded JSON body from fixtures/proxmox (repo-relative). */
export function fixtureJson(path: string): unknown {
  return JSON.parse(readFileSync(new URL(path, FIXTURES), "utf8"));
}

/** A recorded raw HTTP response from fixtures/proxmox/errors. */
export function fixtureHttp(name: string): RawResponse {
  const text = readFileSync(new URL(`errors/${name}`, FIXTURES), "utf8");
  const split = text.indexOf("\r\n\r\n");
  const head = text.slice(0, split).split("\r\n");
  const statusLine = head[0] ?? "";
  const match = /^HTTP\/1\.1 (\d{3}) (.*)$/.exec(statusLine);
  if (!match) throw new Error(`bad fixture status line: ${statusLine}`);
  const headers = head.slice(1).map((line): [string, string] => {
    const colon = line.indexOf(":");
    return [line.slice(0, colon), line.slice(colon + 1).trim()];
  });
  return { status: Number(match[1]), reason: match[2] ?? "", headers, body: text.slice(split + 4) };
}

/** Key → JSON type name ("string", "number", "object", "array", "null"). */
export function shapeOf(value: unknown): Record<string, string> {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw new Error("not an object");
  return Object.fromEntries(
    Object.entries(value).map(([key, v]) => [
      key,
      v === null ? "null" : Array.isArray(v) ? "array" : typeof v,
    ]),
  );
}

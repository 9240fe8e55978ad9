import type { StandinReply } from "../http/reply.ts";
import type { VersionTraits } from "./versions.ts";

/**
 * Answers shaped like pveproxy's, byte for byte against fixtures/proxmox/errors/*.http:
 * the error text goes into the reason phrase, and into a JSON `message` only on releases
 * that have it; auth failures and proxy errors have no body at all.
 */
export class PveReplies {
  constructor(
    readonly traits: VersionTraits,
    readonly now: () => number,
  ) {}

  /** 200 with `{"data": …}`. */
  ok(data: unknown, route: string): StandinReply {
    return this.okJson(JSON.stringify({ data }), route);
  }

  /** 200 with an already serialised body. */
  okJson(body: string, route: string): StandinReply {
    return {
      status: 200,
      reason: "OK",
      headers: { ...this.#base(), "Content-Type": "application/json;charset=UTF-8" },
      body,
      route,
    };
  }

  /** An API error: `{"data":null}` (plus `"message"` on releases that send it). */
  error(status: number, message: string, route?: string): StandinReply {
    const body = this.traits.errorMessageInBody
      ? JSON.stringify({ data: null, message: `${message}\n` })
      : '{"data":null}';
    return {
      status,
      reason: message,
      headers: {
        ...this.#base(),
        Connection: "close",
        "Content-Type": "application/json;charset=UTF-8",
      },
      body,
      route,
    };
  }

  /** A status line without a body (401 from the auth handler, 595 from the proxy). */
  bare(status: number, reason: string, route?: string): StandinReply {
    return { status, reason, headers: { ...this.#base(), Connection: "close" }, body: "", route };
  }

  #base(): Record<string, string> {
    const date = new Date(this.now()).toUTCString();
    return {
      "Cache-Control": "max-age=0",
      Date: date,
      Expires: date,
      Pragma: "no-cache",
      Server: "pve-api-daemon/3.0",
    };
  }
}

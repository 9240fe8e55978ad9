import { randomUUID } from "node:crypto";
import type { StandinReply } from "../http/reply.ts";
import { NS, type Prefixes, qualify } from "./namespaces.ts";
import { attributes, XML_DECLARATION } from "./xml.ts";

/** The minor error codes Director uses for the statuses the stand-in sends. */
const MINOR_CODES: Record<number, string> = {
  400: "BAD_REQUEST",
  401: "UNAUTHORIZED",
  403: "ACCESS_TO_RESOURCE_IS_FORBIDDEN",
  404: "RESOURCE_NOT_FOUND",
  405: "METHOD_NOT_ALLOWED",
  406: "NOT_ACCEPTABLE",
};

/**
 * Answers shaped like Director's for one request: the negotiated version in every
 * Content-Type, request-id headers, XML `<Error>` under /api and JSON
 * `{minorErrorCode, message, stackTrace}` under /cloudapi.
 */
export class VcdReplies {
  readonly #requestId = randomUUID();

  constructor(
    /** The version the client asked for (echoed in Content-Type); 37.0 when it asked none. */
    readonly version: string,
    readonly prefixes: Prefixes,
    readonly now: () => number,
    readonly started: number,
  ) {}

  /** 200 with an XML document of the given vCloud media type (e.g. `query.records`). */
  xml(media: string, body: string, route: string): StandinReply {
    return {
      status: 200,
      headers: this.headers(`application/vnd.vmware.vcloud.${media}+xml;version=${this.version}`),
      body,
      route,
    };
  }

  /** A JSON answer (200 unless told otherwise). */
  json(
    value: unknown,
    route: string | undefined,
    extra: Record<string, string | string[]> = {},
    status = 200,
  ) {
    return {
      status,
      headers: { ...this.headers(`application/json;version=${this.version}`), ...extra },
      body: JSON.stringify(value),
      route,
    } satisfies StandinReply;
  }

  /** A status with no body (204 logout, the 401s of the login endpoint). */
  empty(status: number, route: string | undefined, extra: Record<string, string> = {}) {
    return {
      status,
      headers: { ...this.headers(`application/json;version=${this.version}`), ...extra },
      body: "",
      route,
    } satisfies StandinReply;
  }

  /** An /api error: `<Error majorErrorCode=… message=… minorErrorCode=…/>`. */
  xmlError(status: number, message: string, route?: string): StandinReply {
    const p = this.prefixes;
    const xmlns = p.vcloud === "" ? "xmlns" : `xmlns:${p.vcloud}`;
    const body = `${XML_DECLARATION}\n<${qualify(p.vcloud, "Error")} ${xmlns}="${NS.vcloud}" ${attributes(
      {
        majorErrorCode: status,
        message,
        minorErrorCode: MINOR_CODES[status] ?? "INTERNAL_SERVER_ERROR",
      },
    )}/>\n`;
    return {
      status,
      headers: this.headers(`application/vnd.vmware.vcloud.error+xml;version=${this.version}`),
      body,
      route,
    };
  }

  /** A /cloudapi error: `{minorErrorCode, message, stackTrace}`. */
  jsonError(status: number, message: string, route?: string): StandinReply {
    return this.json(
      {
        minorErrorCode: MINOR_CODES[status] ?? "INTERNAL_SERVER_ERROR",
        message: `[ ${this.#requestId} ] ${message}`,
        stackTrace: null,
      },
      route,
      {},
      status,
    );
  }

  /** The headers every Director answer carries. */
  headers(contentType: string): Record<string, string> {
    return {
      Date: new Date(this.now()).toUTCString(),
      "X-VMWARE-VCLOUD-REQUEST-ID": this.#requestId,
      "X-VMWARE-VCLOUD-REQUEST-EXECUTION-TIME": String(Math.max(0, this.now() - this.started)),
      "Content-Type": contentType,
    };
  }
}

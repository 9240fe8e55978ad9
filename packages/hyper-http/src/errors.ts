import { ClassifiedError, englishText, type ServerText, serverText } from "@hyperlens/shared";

/** Which hypervisor kind a client talks to; used in every message so an administrator knows which server failed. */
export type SourceName = "Proxmox" | "Cloud Director" | "vCenter";

/**
 * What went wrong, as a value the UI and the sync engine can branch on.
 * - `unreachable`: DNS, connection refused, timeout, reset — the server could not be talked to.
 * - `tls`: the certificate was not accepted (self-signed, expired, wrong host name) or the port does not speak TLS.
 * - `auth`: the server did not accept the credentials (HTTP 401).
 * - `permission`: logged in, but not allowed to read this (HTTP 403).
 * - `not_found`: the path or object does not exist on this server or version (HTTP 404, 501).
 * - `transient`: the server kept failing (5xx, Proxmox 595) after the bounded retries.
 * - `malformed`: the answer could not be used (not JSON, too large, wrong shape, other 4xx).
 * - `config`: the request was refused before sending (not https, a write, a redirect to follow by hand).
 */
export type ErrorClass =
  | "unreachable"
  | "tls"
  | "auth"
  | "permission"
  | "not_found"
  | "transient"
  | "malformed"
  | "config";

/** Everything a {@link HyperError} carries besides its message. */
export interface HyperErrorDetails {
  errorClass: ErrorClass;
  source: SourceName;
  /** HTTP status when the server answered. */
  status?: number;
  /** The server's own error text (JSON `message` or the status line reason), trimmed. */
  serverMessage?: string;
  /** The server's machine-readable error kind, upper-case (vSphere Automation's `error_type`). */
  serverErrorType?: string;
  /** For `tls`: why the certificate was refused, e.g. "the certificate is self-signed". */
  tlsReason?: string;
  /** What the administrator can do about it. */
  hint?: string;
  method?: string;
  /** Request path with query-string secrets masked. */
  path?: string;
  /** How many attempts were made before giving up. */
  attempts?: number;
  /** Low-level error code (ECONNREFUSED, CERT_HAS_EXPIRED, …) when there was one. */
  code?: string;
  /**
   * The message as a code and parameters (docs/behaviour.md §11.4): our frame, the server's own
   * words verbatim inside it. Set where the door writes the frame.
   */
  text?: ServerText;
  cause?: unknown;
}

/**
 * The one error type the hypervisor door produces. `message` is written for a person and names
 * the source; it never contains a credential. Its `errorClass` is what a failed Test or sync
 * records (a {@link ClassifiedError}).
 */
export class HyperError extends ClassifiedError {
  override readonly name = "HyperError";
  declare readonly errorClass: ErrorClass;
  readonly source: SourceName;
  readonly status: number | undefined;
  readonly serverMessage: string | undefined;
  readonly serverErrorType: string | undefined;
  readonly tlsReason: string | undefined;
  readonly hint: string | undefined;
  readonly method: string | undefined;
  readonly path: string | undefined;
  readonly attempts: number | undefined;
  readonly code: string | undefined;
  readonly text: ServerText | undefined;

  constructor(message: string, details: HyperErrorDetails) {
    super(
      message,
      details.errorClass,
      details.cause === undefined ? undefined : { cause: details.cause },
    );
    this.source = details.source;
    this.status = details.status;
    this.serverMessage = details.serverMessage;
    this.serverErrorType = details.serverErrorType;
    this.tlsReason = details.tlsReason;
    this.hint = details.hint;
    this.method = details.method;
    this.path = details.path;
    this.attempts = details.attempts;
    this.code = details.code;
    this.text = details.text;
  }
}

/** Narrowing guard for {@link HyperError}, safe across package copies (checks the shape, not the prototype). */
export function isHyperError(value: unknown): value is HyperError {
  return (
    value instanceof HyperError ||
    (value instanceof Error &&
      value.name === "HyperError" &&
      typeof (value as { errorClass?: unknown }).errorClass === "string")
  );
}

/**
 * The same failure with advice added: `hint` set and written after the message, every other detail
 * kept, the original as the cause. For a source's own advice on a class the door cannot explain
 * (a refused login: how that source spells user names).
 */
export function withHint(error: HyperError, hint: string | ServerText): HyperError {
  const hintEnglish = typeof hint === "string" ? hint : englishText(hint);
  return new HyperError(`${error.message} (${hintEnglish})`, {
    errorClass: error.errorClass,
    source: error.source,
    ...(error.status === undefined ? {} : { status: error.status }),
    ...(error.serverMessage === undefined ? {} : { serverMessage: error.serverMessage }),
    ...(error.serverErrorType === undefined ? {} : { serverErrorType: error.serverErrorType }),
    ...(error.tlsReason === undefined ? {} : { tlsReason: error.tlsReason }),
    ...(error.method === undefined ? {} : { method: error.method }),
    ...(error.path === undefined ? {} : { path: error.path }),
    ...(error.attempts === undefined ? {} : { attempts: error.attempts }),
    ...(error.code === undefined ? {} : { code: error.code }),
    ...(error.text === undefined
      ? {}
      : { text: serverText("hyperFailureHint", { failure: error.text, hint }) }),
    hint: hintEnglish,
    cause: error,
  });
}

/**
 * A failure Hyperlens words itself, as a code (docs/behaviour.md §11.4): its message is the
 * text's English, so the code is handed on for as long as nobody rewords it.
 */
export function textError(text: ServerText, details: Omit<HyperErrorDetails, "text">): HyperError {
  return new HyperError(englishText(text), { ...details, text });
}

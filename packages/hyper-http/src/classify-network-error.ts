import { type ServerText, serverText } from "@hyperlens/shared";
import type { ErrorClass } from "./errors.ts";

/** A network-level failure reduced to what a person and the retry loop need. */
export interface NetworkFailure {
  errorClass: Extract<ErrorClass, "unreachable" | "tls">;
  /** Completes "Could not reach the X server: …" or "The X server's certificate was not accepted: …". */
  reason: string;
  /** `reason` as a code, where it has one (docs/behaviour.md §11.4). */
  reasonText?: ServerText;
  hint?: string;
  /** `hint` as a code, where it has one. */
  hintText?: ServerText;
  code: string | undefined;
  /** Worth another attempt (reset, timeout, refused), as opposed to DNS or TLS failures that will not heal in seconds. */
  isTransient: boolean;
  /** Nothing reached the server (connect phase), so even a login may be retried. */
  isBeforeSend: boolean;
}

const CA_HINT = "add the server's CA certificate or turn off verification for this connection";
const CA_HINT_TEXT = { hint: CA_HINT, hintText: serverText("netHintAddCa", {}) };
const UNTRUSTED_CA = {
  reason: "the certificate was issued by a CA that is not trusted",
  reasonText: serverText("netTlsUntrustedCa", {}),
  ...CA_HINT_TEXT,
};

type TlsReason = Pick<NetworkFailure, "reason" | "reasonText" | "hint" | "hintText">;

const TLS_REASONS: Record<string, TlsReason> = {
  DEPTH_ZERO_SELF_SIGNED_CERT: {
    reason: "the certificate is self-signed",
    reasonText: serverText("netTlsSelfSigned", {}),
    ...CA_HINT_TEXT,
  },
  SELF_SIGNED_CERT_IN_CHAIN: {
    reason: "the certificate chain ends in a self-signed CA that is not trusted",
    hint: CA_HINT,
  },
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: UNTRUSTED_CA,
  UNABLE_TO_GET_ISSUER_CERT_LOCALLY: UNTRUSTED_CA,
  UNABLE_TO_GET_ISSUER_CERT: UNTRUSTED_CA,
  CERT_HAS_EXPIRED: {
    reason: "the certificate has expired",
    reasonText: serverText("netTlsExpired", {}),
    hint: `renew the server's certificate, or ${CA_HINT}`,
  },
  CERT_NOT_YET_VALID: {
    reason: "the certificate is not valid yet (check the clocks of both machines)",
    hint: CA_HINT,
  },
  ERR_TLS_CERT_ALTNAME_INVALID: {
    reason: "the certificate was issued for a different host name",
    reasonText: serverText("netTlsOtherHost", {}),
    hint: "use the host name the certificate names in the address, or turn off verification for this connection",
  },
  CERT_SIGNATURE_FAILURE: { reason: "the certificate signature is invalid", hint: CA_HINT },
};

const TRANSIENT_BEFORE_SEND = new Set(["ECONNREFUSED", "UND_ERR_CONNECT_TIMEOUT", "EAI_AGAIN"]);
const TRANSIENT_AFTER_SEND = new Set([
  "ECONNRESET",
  "EPIPE",
  "ETIMEDOUT",
  "UND_ERR_SOCKET",
  "UND_ERR_HEADERS_TIMEOUT",
  "UND_ERR_BODY_TIMEOUT",
  "UND_ERR_CLOSED",
]);

/**
 * Classifies an error thrown by undici (or the socket below it). Returns `null` when the error is
 * not a network failure (a bug, an abort we caused), so the caller can decide.
 */
export function classifyNetworkError(error: unknown, hostPort: string): NetworkFailure | null {
  const code = findCode(error);
  const host = hostPort.replace(/:\d+$/, "");
  if (code === undefined) {
    const text = error instanceof Error ? error.message : "";
    if (/ssl|tls|certificate/i.test(text)) return tlsProtocolFailure(undefined);
    return null;
  }
  const tls = TLS_REASONS[code];
  if (tls) {
    return { errorClass: "tls", ...tls, code, isTransient: false, isBeforeSend: true };
  }
  if (code.startsWith("ERR_SSL_") || code.startsWith("ERR_TLS_") || code === "EPROTO") {
    return tlsProtocolFailure(code);
  }
  switch (code) {
    case "ENOTFOUND":
      return {
        ...unreachable(`could not resolve host ${host}`, code, false, true),
        reasonText: serverText("netUnresolved", { host }),
      };
    case "EAI_AGAIN":
      return unreachable(`could not resolve host ${host} (DNS did not answer)`, code, true, true);
    case "ECONNREFUSED":
      return {
        ...unreachable(`connection refused by ${hostPort}`, code, true, true),
        reasonText: serverText("netRefused", { hostPort }),
      };
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return unreachable(`no network route to ${hostPort}`, code, false, true);
    case "UND_ERR_CONNECT_TIMEOUT":
      return unreachable(
        `no connection to ${hostPort} within the connect timeout`,
        code,
        true,
        true,
      );
    case "UND_ERR_HEADERS_TIMEOUT":
      return unreachable(`${hostPort} did not answer within the timeout`, code, true, false);
    case "UND_ERR_BODY_TIMEOUT":
      return unreachable(
        `${hostPort} stopped sending its answer (body timeout)`,
        code,
        true,
        false,
      );
    case "ETIMEDOUT":
      return unreachable(`the connection to ${hostPort} timed out`, code, true, false);
    case "ECONNRESET":
    case "EPIPE":
    case "UND_ERR_SOCKET":
    case "UND_ERR_CLOSED":
      return unreachable(
        `the connection to ${hostPort} was closed unexpectedly`,
        code,
        true,
        false,
      );
    default:
      if (TRANSIENT_BEFORE_SEND.has(code) || TRANSIENT_AFTER_SEND.has(code)) {
        return unreachable(`network error talking to ${hostPort} (${code})`, code, true, false);
      }
      if (/^E[A-Z]+$/.test(code)) {
        return unreachable(`network error talking to ${hostPort} (${code})`, code, false, false);
      }
      return null;
  }
}

function unreachable(
  reason: string,
  code: string,
  isTransient: boolean,
  isBeforeSend: boolean,
): NetworkFailure {
  return { errorClass: "unreachable", reason, code, isTransient, isBeforeSend };
}

function tlsProtocolFailure(code: string | undefined): NetworkFailure {
  return {
    errorClass: "tls",
    reason:
      "the TLS handshake failed (is this port serving https? Proxmox listens on 8006, Director and vCenter on 443)",
    hint: "check the address and port",
    code,
    isTransient: false,
    isBeforeSend: true,
  };
}

// undici wraps socket errors in `cause`; happy-eyeballs connects raise an AggregateError.
function findCode(error: unknown, depth = 0): string | undefined {
  if (depth > 5 || typeof error !== "object" || error === null) return undefined;
  const own = (error as { code?: unknown }).code;
  if (typeof own === "string" && own !== "UND_ERR" && own !== "UND_ERR_ABORTED") return own;
  const inner = (error as { errors?: unknown }).errors;
  if (Array.isArray(inner)) {
    for (const item of inner) {
      const found = findCode(item, depth + 1);
      if (found) return found;
    }
  }
  return findCode((error as { cause?: unknown }).cause, depth + 1);
}

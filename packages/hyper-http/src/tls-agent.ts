import { X509Certificate } from "node:crypto";
import { createSecureContext, rootCertificates } from "node:tls";
import { Agent } from "undici";
import { guardedConnector, type TargetAddressPolicy } from "./target-address.ts";

/** TLS and socket settings of one connection's agent. */
export interface TlsAgentOptions {
  verifyTls: boolean;
  /** The connection's own CA certificate(s), PEM; trusted in addition to the bundled public CAs. */
  caPem?: string | null | undefined;
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  /** Which resolved addresses the agent may connect to (loopback and link-local refused by default). */
  targets: TargetAddressPolicy;
}

/**
 * Builds the undici Agent for one connection. Each connection gets its own Agent, so turning
 * verification off for one never loosens another. Note that passing `ca` replaces Node's default
 * list, which is why the bundled roots are spread in (NODE_EXTRA_CA_CERTS is not added then).
 */
export function createTlsAgent(options: TlsAgentOptions): Agent {
  const timeout = options.connectTimeoutMs;
  // TRAP: docs/behaviour.md §2 — verification off is per connection: a shared/global agent would loosen them all.
  const connect = options.verifyTls
    ? {
        rejectUnauthorized: true,
        timeout,
        // One secure context per agent: building it from ~150 root certificates costs tens of
        // milliseconds, and undici would otherwise rebuild it for every new TLS connection.
        ...(options.caPem
          ? { secureContext: createSecureContext({ ca: [...rootCertificates, options.caPem] }) }
          : {}),
      }
    : { rejectUnauthorized: false, timeout };
  return new Agent({
    // TRAP: outbound policy (docs/operations.md) — checked on the address the socket connects to,
    // so a name re-pointed at loopback after the save is refused too.
    connect: guardedConnector(connect, options.targets),
    headersTimeout: options.headersTimeoutMs,
    bodyTimeout: options.bodyTimeoutMs,
  });
}

/** Returns `null` if `pem` holds at least one parseable certificate, else a message for the person. */
export function checkCaPem(pem: string): string | null {
  const first = /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.exec(pem);
  if (!first) return "The CA certificate of this connection is not a PEM certificate";
  try {
    new X509Certificate(first[0]);
    return null;
  } catch {
    return "The CA certificate of this connection could not be read (damaged PEM)";
  }
}

// How a connector (Proxmox, Director, vCenter client) gets its hyper-http client: handed a ready
// one, which stays its caller's to close, or the options to build one with the connector's source
// and login allowlist, which the connector then owns and closes.
import { createHyperClient, type HyperClient, type HyperClientOptions } from "./client.ts";
import type { SourceName } from "./errors.ts";
import { type HyperLogger, silentLogger } from "./observability.ts";
import type { AllowedWrite } from "./write-guard.ts";

/** Options a connector builds its client from; it fills in the source and its login allowlist. */
export type ConnectorHttpOptions = Omit<HyperClientOptions, "source" | "allowedWrites">;

/** What a connector fills in, and the logger it was given. */
export interface ConnectorHttpFill {
  source: SourceName;
  allowedWrites: readonly AllowedWrite[];
  logger?: HyperLogger | undefined;
}

/** The client a connector uses and what it needs to know about it. */
export interface ConnectorHttp {
  http: HyperClient;
  /** The options `http` was built from here, or undefined when a ready client was handed in. */
  builtFrom: ConnectorHttpOptions | undefined;
  /** Whether `http` was built here, so the connector's `close()` closes it. */
  ownsHttp: boolean;
  /** The logger given to the connector, else the one of the options, else a silent one. */
  logger: HyperLogger;
}

/** Resolves a connector's `http` option: a ready client, or the options to build one here. */
export function connectorHttp(
  given: HyperClient | ConnectorHttpOptions,
  fill: ConnectorHttpFill,
): ConnectorHttp {
  if (isHyperClient(given)) {
    return {
      http: given,
      builtFrom: undefined,
      ownsHttp: false,
      logger: fill.logger ?? silentLogger,
    };
  }
  return {
    http: createHyperClient({ ...given, source: fill.source, allowedWrites: fill.allowedWrites }),
    builtFrom: given,
    ownsHttp: true,
    logger: fill.logger ?? given.logger ?? silentLogger,
  };
}

function isHyperClient(value: HyperClient | ConnectorHttpOptions): value is HyperClient {
  return typeof (value as Partial<HyperClient>).request === "function";
}

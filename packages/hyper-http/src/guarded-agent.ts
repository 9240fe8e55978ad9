// An HTTP agent for Hyperlens's own outbound calls that are not to a hypervisor (webhook
// deliveries): the same outbound address policy as the door (target-address.ts), keep-alive
// connections reused, redirects never followed (undici's Agent does not follow them).
import { Agent } from "undici";
import { guardedConnector, type TargetAddressPolicy } from "./target-address.ts";

export interface GuardedAgentOptions {
  /** How long opening a connection (TCP and TLS) may take. */
  connectTimeoutMs: number;
  /** How long an idle kept-alive connection stays open for the next request. */
  keepAliveMs?: number;
}

/** An agent whose every connection is checked against `policy` at connect time. */
export function createGuardedAgent(
  policy: TargetAddressPolicy,
  options: GuardedAgentOptions,
): Agent {
  return new Agent({
    connect: guardedConnector({ timeout: options.connectTimeoutMs }, policy),
    keepAliveTimeout: options.keepAliveMs ?? 30_000,
  });
}

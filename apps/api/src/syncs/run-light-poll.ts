// One light poll of a connection by the replica that holds its lease (docs/behaviour.md §8.7):
// the same lease, heartbeat and progress events as a full sync, so a poll never runs beside a
// sync of the same connection, and only one replica polls it.
import { randomUUID } from "node:crypto";
import type { Connection } from "@hyperlens/db";
import { type LightPollResult, runLightPoll, type SyncResult } from "@hyperlens/sync";
import type { AppServices } from "../context.ts";
import { readConnectionSecret } from "../services/connections.ts";
import { openHypervisorSession } from "../services/hypervisor-session.ts";
import {
  type HeldLease,
  progressPublisher,
  type StartedSync,
  whileLeaseHeld,
} from "./run-under-lease.ts";

/** A light poll as a sync result: the run id is "" when the poll recorded no run. */
function asSyncResult(result: LightPollResult): SyncResult {
  const outcomes = {
    unchanged: "SUCCESS",
    written: result.heldBack ? "PARTIAL" : "SUCCESS",
    failed: "FAILED",
    cancelled: "CANCELLED",
  } as const;
  return {
    syncRunId: result.syncRunId ?? "",
    outcome: outcomes[result.outcome],
    counts: result.counts,
    message: result.message,
    guardFired: result.heldBack > 0,
    suppressed: [],
  };
}

/** Runs a light poll of a connection whose lease is held; releases the lease when it ends. */
export function runLightPollUnderLease(
  services: AppServices,
  lease: HeldLease,
  connection: Connection,
  controller: AbortController,
): StartedSync {
  const { prisma, logger } = services;
  const id = connection.id;
  const correlationId = randomUUID();
  const poll = async (announce: (syncRunId: string) => void) => {
    const secret = await readConnectionSecret(prisma, services.secrets, id);
    const session = openHypervisorSession(services, connection, secret, correlationId);
    try {
      const reads = session.lightPoll;
      if (!reads) throw new Error(`Connections of kind ${connection.kind} have no light poll.`);
      const result = await runLightPoll({
        prisma,
        connectionId: id,
        source: connection.kind,
        correlationId,
        list: (signal) => reads.list(signal),
        readGuests: (guests, signal) => reads.readGuests(guests, signal),
        signal: controller.signal,
        emit: progressPublisher(services, id, announce),
        onFeedAdvanced: () => services.events.publish("feed:advanced", { connectionId: id }),
        now: lease.now,
      });
      if (result.outcome !== "cancelled") {
        // Bookkeeping, like the lease: every replica judges the next poll by it.
        await prisma.connection.update({
          where: { id },
          data: { lastLightPollAt: lease.now() },
        });
      }
      if (result.outcome === "failed") logger.warn({ connectionId: id }, result.message);
      if (result.heldBack) {
        logger.warn({ connectionId: id, heldBack: result.heldBack }, "Light poll: guard held");
      }
      return asSyncResult(result);
    } finally {
      // TRAP: docs/behaviour.md §4 — Director/vCenter sessions are logged out after every read.
      await session.close();
    }
  };
  return { ...whileLeaseHeld(services, lease, id, controller, poll), isLightPoll: true };
}

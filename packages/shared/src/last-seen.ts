// Read rules of the stored inventory: what the API shows for times the sync engine does not
// rewrite on every run. Here, not in the engine, because the API's readers use them as much as
// its writer does, and the read side must not import the write package.

/**
 * When a guest was last seen. The engine writes nothing for an unchanged guest, so its stored
 * lastSeenAt only moves when the row is written; a CONFIRMED row was, by construction, seen by
 * the connection's last completed sync (every unseen row leaves CONFIRMED in that sync).
 */
export function effectiveLastSeenAt(
  vm: { confirmation: string; lastSeenAt: Date; removedAt: Date | null },
  connection: { lastSuccessAt: Date | null },
): Date {
  if (vm.confirmation !== "CONFIRMED" || vm.removedAt || !connection.lastSuccessAt) {
    return vm.lastSeenAt;
  }
  return new Date(Math.max(connection.lastSuccessAt.getTime(), vm.lastSeenAt.getTime()));
}

/**
 * When a sync last saw an address of a guest. One in the guest's last read was seen whenever the
 * guest was — its row is not rewritten while the guest is unchanged, so its own time would stop
 * at the first sync; a last-known one (docs/behaviour.md §10) keeps the time it was last seen.
 */
export function effectiveIpConfirmedAt(
  ip: { isLastKnown: boolean; lastConfirmedAt: Date },
  vm: { confirmation: string; lastSeenAt: Date; removedAt: Date | null },
  connection: { lastSuccessAt: Date | null },
): Date {
  return ip.isLastKnown ? ip.lastConfirmedAt : effectiveLastSeenAt(vm, connection);
}

/**
 * When the guest agent last reported a value (docs/behaviour.md §10.10): a
 * live one whenever its guest was seen, a last-known one at the time it keeps.
 */
export function effectiveReportedAt(
  value: { reportedAt: Date; notReportedSince: Date | null },
  vm: { confirmation: string; lastSeenAt: Date; removedAt: Date | null },
  connection: { lastSuccessAt: Date | null },
): Date {
  return value.notReportedSince ? value.reportedAt : effectiveLastSeenAt(vm, connection);
}

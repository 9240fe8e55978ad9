import { describe, expect, it } from "vitest";
import { effectiveIpConfirmedAt, effectiveLastSeenAt } from "./index.ts";

const earlier = new Date("2026-01-01T00:00:00Z");
const lastSync = new Date("2026-01-02T00:00:00Z");
const connection = { lastSuccessAt: lastSync };
const confirmed = { confirmation: "CONFIRMED", lastSeenAt: earlier, removedAt: null };

describe("effectiveLastSeenAt", () => {
  it("a CONFIRMED guest was seen by its connection's last completed sync", () => {
    expect(effectiveLastSeenAt(confirmed, connection)).toEqual(lastSync);
  });

  it("a guest kept as last known, or removed, keeps the time it was last seen", () => {
    const kept = { ...confirmed, confirmation: "NODE_OFFLINE" };
    expect(effectiveLastSeenAt(kept, connection)).toEqual(earlier);
    expect(effectiveLastSeenAt({ ...confirmed, removedAt: lastSync }, connection)).toEqual(earlier);
    expect(effectiveLastSeenAt(confirmed, { lastSuccessAt: null })).toEqual(earlier);
  });
});

describe("effectiveIpConfirmedAt", () => {
  it("an address of the guest's last read was confirmed whenever the guest was", () => {
    const ip = { isLastKnown: false, lastConfirmedAt: earlier };
    expect(effectiveIpConfirmedAt(ip, confirmed, connection)).toEqual(lastSync);
  });

  it("a last-known address keeps the time a sync last saw it", () => {
    const ip = { isLastKnown: true, lastConfirmedAt: earlier };
    expect(effectiveIpConfirmedAt(ip, confirmed, connection)).toEqual(earlier);
  });
});

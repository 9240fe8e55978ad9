// Enums of the inventory types, shared by the types and their filters.
import { builder } from "./builder.ts";

export const PowerStateEnum = builder.enumType("PowerState", {
  values: ["RUNNING", "STOPPED", "PAUSED", "SUSPENDED", "UNKNOWN"] as const,
});
export const GuestKindEnum = builder.enumType("GuestKind", {
  values: ["VM", "CONTAINER"] as const,
});
export const ConfirmationEnum = builder.enumType("Confirmation", {
  description: "Whether the last sync saw this guest, and if not, why it was kept.",
  values: {
    CONFIRMED: { description: "Seen in the last sync." },
    NODE_OFFLINE: { description: "Its node was offline: kept as last known." },
    LIST_FAILED: { description: "The list it belongs to could not be read: kept as last known." },
    NOT_CONFIRMED: { description: "Missing from a list, but removal was suppressed (guard)." },
  } as const,
});
export const IpOriginEnum = builder.enumType("IpOrigin", {
  values: ["STATIC_CONFIG", "DHCP", "AGENT", "PLATFORM"] as const,
});
export const VmEventTypeEnum = builder.enumType("VmEventType", {
  values: ["APPEARED", "CHANGED", "MOVED", "REMOVED", "RESTORED"] as const,
});

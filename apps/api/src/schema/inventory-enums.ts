// Enums of the inventory types, shared by the types and their filters.
import {
  ADDRESS_REJECT_RULES,
  type Confirmation,
  GUEST_KINDS,
  IP_ORIGINS,
  POWER_STATES,
  VM_EVENT_TYPES,
} from "@hyperlens/shared";
import { builder } from "./builder.ts";

export const PowerStateEnum = builder.enumType("PowerState", {
  values: POWER_STATES,
});
export const GuestKindEnum = builder.enumType("GuestKind", {
  values: GUEST_KINDS,
});
export const ConfirmationEnum = builder.enumType("Confirmation", {
  description: "Whether the last sync saw this guest, and if not, why it was kept.",
  values: {
    CONFIRMED: { description: "Seen in the last sync." },
    NODE_OFFLINE: { description: "Its node was offline: kept as last known." },
    LIST_FAILED: { description: "The list it belongs to could not be read: kept as last known." },
    NOT_CONFIRMED: { description: "Missing from a list, but removal was suppressed (guard)." },
  } as const satisfies Record<Confirmation, { description: string }>,
});
export const IpOriginEnum = builder.enumType("IpOrigin", {
  values: IP_ORIGINS,
});
export const VmEventTypeEnum = builder.enumType("VmEventType", {
  values: VM_EVENT_TYPES,
});
export const AddressRejectRuleEnum = builder.enumType("AddressRejectRule", {
  description: "The address rule that rejected an address (docs/behaviour.md §10.9).",
  values: ADDRESS_REJECT_RULES,
});

// What only the guest agent or VMware Tools reports — hostname, OS, kernel — with when it last did,
// and for every value that is missing or stale, why (docs/behaviour.md §10.10,
// §10.11).
import {
  type ConnectionKind,
  effectiveReportedAt,
  type GuestKind,
  type GuestValueField,
  type MissingReason,
  type MissingReasonCode,
  missingReason,
  parseGuestReport,
  valueMissingReason,
} from "@hyperlens/shared";
import { builder } from "./builder.ts";

export const MissingReasonCodeEnum = builder.enumType("MissingReasonCode", {
  description: "Why a value the guest itself reports is missing or no longer current.",
  values: {
    VM_NOT_RUNNING: { description: "The VM is not running, so its agent cannot be asked." },
    CONTAINER_STOPPED: { description: "The container is stopped: no live interfaces." },
    AGENT_NOT_CONFIGURED: { description: "The VM's config does not enable the guest agent." },
    AGENT_NOT_RUNNING: { description: "The guest agent is enabled but did not answer." },
    TOOLS_NOT_RUNNING: { description: "VMware Tools are not running in the guest." },
    PERMISSION_MISSING: {
      description: "The credentials lack the privilege named in `privilege` for agent reads.",
    },
    READ_FAILED: { description: "The agent or source answered with an error (see `message`)." },
    NOT_OFFERED_BY_SOURCE: { description: "This source does not report such values." },
    LIST_FAILED: { description: "The guest's list failed in the last sync: it was not read." },
    NOT_REPORTED_BY_GUEST: { description: "The guest answered but did not include this value." },
  } as const satisfies Record<MissingReasonCode, { description: string }>,
});

const MissingReasonRef = builder.objectRef<MissingReason>("MissingReason").implement({
  description: "Why a value is missing, as a code with the parameters its sentence needs.",
  fields: (t) => ({
    code: t.field({ type: MissingReasonCodeEnum, resolve: (r) => r.code }),
    privilege: t.string({ nullable: true, resolve: (r) => r.privilege ?? null }),
    message: t.string({ nullable: true, resolve: (r) => r.message ?? null }),
  }),
});

/** One guest-reported value as the API shows it. */
interface ReportedValueShape {
  value: string | null;
  reportedAt: Date | null;
  notReportedSince: Date | null;
  missingReason: MissingReason | null;
}

const ReportedValueRef = builder.objectRef<ReportedValueShape>("ReportedValue").implement({
  description:
    "A value only the guest reports. Kept when the guest goes silent: then notReportedSince and missingReason say since when and why.",
  fields: (t) => ({
    value: t.string({ nullable: true, resolve: (v) => v.value }),
    reportedAt: t.field({
      type: "DateTime",
      nullable: true,
      description: "When a sync last read it from the guest.",
      resolve: (v) => v.reportedAt,
    }),
    notReportedSince: t.field({
      type: "DateTime",
      nullable: true,
      description: "The first sync that did not read it; null while the guest reports it.",
      resolve: (v) => v.notReportedSince,
    }),
    missingReason: t.field({
      type: MissingReasonRef,
      nullable: true,
      description: "Why it is missing or not current; null while the guest reports it.",
      resolve: (v) => v.missingReason,
    }),
  }),
});

/** What a guest row and its stored values give the resolvers below. */
export interface GuestReportRow {
  source: ConnectionKind;
  kind: GuestKind;
  guestReport: unknown;
  confirmation: string;
  lastSeenAt: Date;
  removedAt: Date | null;
  connection: { lastSuccessAt: Date | null };
  guestValues: { field: string; value: string; reportedAt: Date; notReportedSince: Date | null }[];
}

/** The columns the resolvers read. */
export const GUEST_REPORT_SELECT = {
  source: true,
  kind: true,
  guestReport: true,
  confirmation: true,
  lastSeenAt: true,
  removedAt: true,
  connection: { select: { lastSuccessAt: true } },
  guestValues: { select: { field: true, value: true, reportedAt: true, notReportedSince: true } },
} as const;

/** Why the agent / Tools gave nothing in the guest's last read; null when they reported. */
export function agentMissingReason(vm: GuestReportRow): MissingReason | null {
  const reason = missingReason(parseGuestReport(vm.guestReport), vm.confirmation);
  return reason?.code === "NOT_REPORTED_BY_GUEST" ? null : reason;
}

function reportedValue(vm: GuestReportRow, field: GuestValueField): ReportedValueShape {
  const stored = vm.guestValues.find((v) => v.field === field);
  if (stored && !stored.notReportedSince && vm.confirmation !== "LIST_FAILED") {
    return {
      value: stored.value,
      reportedAt: effectiveReportedAt(stored, vm, vm.connection),
      notReportedSince: null,
      missingReason: null,
    };
  }
  return {
    value: stored?.value ?? null,
    reportedAt: stored ? effectiveReportedAt(stored, vm, vm.connection) : null,
    notReportedSince: stored?.notReportedSince ?? null,
    missingReason: valueMissingReason(vm, field, parseGuestReport(vm.guestReport)),
  };
}

export const GuestValuesRef = builder.objectRef<GuestReportRow>("GuestValues").implement({
  description:
    "What only the guest agent (Proxmox) or VMware Tools (vCenter) reports; Director reports none (docs/behaviour.md §10.10).",
  fields: (t) => ({
    hostname: t.field({ type: ReportedValueRef, resolve: (vm) => reportedValue(vm, "HOSTNAME") }),
    osName: t.field({ type: ReportedValueRef, resolve: (vm) => reportedValue(vm, "OS_NAME") }),
    osVersion: t.field({
      type: ReportedValueRef,
      resolve: (vm) => reportedValue(vm, "OS_VERSION"),
    }),
    kernel: t.field({ type: ReportedValueRef, resolve: (vm) => reportedValue(vm, "KERNEL") }),
  }),
});

export { MissingReasonRef };

// Values only a guest agent or VMware Tools reports, and why one is missing (docs/behaviour.md
// §10.10–10.11). Universal code: the web app translates the codes.

import type { ConnectionKind } from "./capabilities.ts";
import type { GuestKind } from "./inventory.ts";

/** The values a guest reports about itself, kept last-known when it goes silent. */
export const GUEST_VALUE_FIELDS = ["HOSTNAME", "OS_NAME", "OS_VERSION", "KERNEL"] as const;

/** One guest-reported value. */
export type GuestValueField = (typeof GUEST_VALUE_FIELDS)[number];

/**
 * Which values each source reports for each kind of guest: a Proxmox VM's agent (get-host-name,
 * get-osinfo), a container's config (hostname), vCenter's Tools (guest/identity: host_name,
 * full_name). Director reports none. A value outside this is NOT_OFFERED_BY_SOURCE.
 */
export const GUEST_VALUES_OFFERED: Record<
  ConnectionKind,
  Record<GuestKind, readonly GuestValueField[]>
> = {
  PROXMOX: { VM: GUEST_VALUE_FIELDS, CONTAINER: ["HOSTNAME"] },
  VCENTER: { VM: ["HOSTNAME", "OS_NAME"], CONTAINER: [] },
  VCD: { VM: [], CONTAINER: [] },
};

/**
 * How the guest agent / VMware Tools fared in one read: REPORTED, or why it gave nothing.
 * NOT_OFFERED_BY_SOURCE: the source has no such agent (Director, old Proxmox for containers).
 */
export const GUEST_REPORT_CODES = [
  "REPORTED",
  "VM_NOT_RUNNING",
  "CONTAINER_STOPPED",
  "AGENT_NOT_CONFIGURED",
  "AGENT_NOT_RUNNING",
  "TOOLS_NOT_RUNNING",
  "PERMISSION_MISSING",
  "READ_FAILED",
  "NOT_OFFERED_BY_SOURCE",
] as const;

/** One guest report code. */
export type GuestReportCode = (typeof GUEST_REPORT_CODES)[number];

/** The outcome of one read of the guest's own reports, with the parameters its code needs. */
export interface GuestReport {
  code: GuestReportCode;
  /** PERMISSION_MISSING: the privilege the credentials lack ("VM.GuestAgent.Audit"). */
  privilege?: string;
  /** READ_FAILED, PERMISSION_MISSING: the source's own words. */
  message?: string;
}

/**
 * Why a value is missing: a report code other than REPORTED, LIST_FAILED (the guest's list failed
 * in the last sync, so it was not read), or NOT_REPORTED_BY_GUEST (the guest answered without it).
 */
export const MISSING_REASON_CODES = [
  ...GUEST_REPORT_CODES.filter((code) => code !== "REPORTED"),
  "LIST_FAILED",
  "NOT_REPORTED_BY_GUEST",
] as const;

/** One reason a value is missing. */
export type MissingReasonCode =
  | Exclude<GuestReportCode, "REPORTED">
  | "LIST_FAILED"
  | "NOT_REPORTED_BY_GUEST";

/** Why a value is missing, with the parameters the web app puts into its sentence. */
export interface MissingReason {
  code: MissingReasonCode;
  privilege?: string;
  message?: string;
}

/**
 * Why a guest has no value (or only a last-known one) for what its agent reports. A guest its last
 * sync could not read is explained by that; one whose agent answered lacks the value itself.
 */
export function missingReason(
  report: GuestReport | null,
  confirmation: string,
): MissingReason | null {
  // TRAP: docs/behaviour.md §10.11 — a guest not read says so, not what its agent said a sync before.
  if (confirmation === "LIST_FAILED") return { code: "LIST_FAILED" };
  if (!report) return null;
  if (report.code === "REPORTED") return { code: "NOT_REPORTED_BY_GUEST" };
  return { ...report, code: report.code };
}

/** Why one value of a guest is missing: not offered by its source, or as missingReason says. */
export function valueMissingReason(
  guest: { source: ConnectionKind; kind: GuestKind; confirmation: string },
  field: GuestValueField,
  report: GuestReport | null,
): MissingReason | null {
  if (!GUEST_VALUES_OFFERED[guest.source][guest.kind].includes(field)) {
    return { code: "NOT_OFFERED_BY_SOURCE" };
  }
  return missingReason(report, guest.confirmation);
}

/** Reads a stored guestReport column back; anything unrecognised is no report. */
export function parseGuestReport(stored: unknown): GuestReport | null {
  if (!stored || typeof stored !== "object") return null;
  const { code, privilege, message } = stored as Record<string, unknown>;
  if (!GUEST_REPORT_CODES.includes(code as GuestReportCode)) return null;
  return {
    code: code as GuestReportCode,
    ...(typeof privilege === "string" ? { privilege } : {}),
    ...(typeof message === "string" ? { message } : {}),
  };
}

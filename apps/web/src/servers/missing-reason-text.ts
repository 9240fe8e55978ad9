import { t } from "../i18n/i18n.ts";

/** Why a guest-reported value is missing, as the API gives it (docs/behaviour.md §10.11). */
export interface MissingReasonFields {
  code: string;
  privilege: string | null;
  message: string | null;
}

/**
 * The sentence for a missing-value reason in the current language: "The credentials lack the
 * VM.GuestAgent.Audit privilege." A code this web app does not know yet is shown as it is.
 */
export function missingReasonText(reason: MissingReasonFields): string {
  switch (reason.code) {
    case "PERMISSION_MISSING":
      return reason.privilege
        ? t("missingReason.PERMISSION_MISSING", { privilege: reason.privilege })
        : t("missingReason.PERMISSION_MISSING_UNNAMED");
    case "READ_FAILED":
      return t("missingReason.READ_FAILED", { message: reason.message ?? "—" });
    case "VM_NOT_RUNNING":
    case "CONTAINER_STOPPED":
    case "AGENT_NOT_CONFIGURED":
    case "AGENT_NOT_RUNNING":
    case "TOOLS_NOT_RUNNING":
    case "NOT_OFFERED_BY_SOURCE":
    case "LIST_FAILED":
    case "NOT_REPORTED_BY_GUEST":
      return t(`missingReason.${reason.code}`);
    default:
      return reason.code;
  }
}

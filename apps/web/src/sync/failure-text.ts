// How a failed Test or sync reads: a failure on this side of the hypervisor door has advice of its
// own in the user's language; a hypervisor's failure shows its class and the server's message.
import { RESULT_ERROR_CLASSES, type ResultErrorClass } from "@hyperlens/shared";
import { type MessageKey, t } from "../i18n/i18n.ts";

const ADVICE: Record<ResultErrorClass, MessageKey> = {
  [RESULT_ERROR_CLASSES.SECRET_UNREADABLE]: "sync.failure.secret_unreadable",
};

const isResultErrorClass = (value: string): value is ResultErrorClass => value in ADVICE;

/** The text of a failed Test or sync result with error class `errorClass`. */
export function failureText(errorClass: string | null, message: string | null): string {
  if (errorClass && isResultErrorClass(errorClass)) return t(ADVICE[errorClass]);
  return errorClass ? `${errorClass}: ${message ?? ""}` : (message ?? "");
}

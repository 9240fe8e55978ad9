// What a two-factor mutation answered, as the one message to show (or none on success).
import { currentLanguage, t } from "../i18n/i18n.ts";
import { formatRetryWhen } from "../shell/retry-when.ts";

type Outcome =
  | {
      __typename: string;
      message?: string;
      retryAt?: unknown;
      problems?: readonly { message: string }[];
    }
  | null
  | undefined;

/** The problem to show for a refused code step; undefined when it succeeded. */
export function codeProblem(outcome: Outcome, error: { message: string } | undefined) {
  if (error) return error.message;
  if (!outcome) return undefined;
  if (outcome.__typename === "RateLimitedError" && typeof outcome.retryAt === "string") {
    return t("auth.rateLimited", { when: formatRetryWhen(currentLanguage(), outcome.retryAt) });
  }
  if (outcome.__typename === "InvalidTwoFactorCodeError") return t("twoFactor.wrongCode");
  if (outcome.__typename === "SignInExpiredError") return t("twoFactor.expired");
  if (outcome.problems?.length) return outcome.problems.map((p) => p.message).join(" ");
  return outcome.message;
}

import type { AddressRules } from "@hyperlens/shared";
import { useClient } from "urql";
import { problemsOfAnswer } from "../graphql/validation-error.ts";
import { t } from "../i18n/i18n.ts";
import { PREVIEW_ADDRESS_RULES } from "./rules-documents.ts";
import type { PreviewAnswer } from "./rules-workbench.tsx";

/**
 * Asks the API what rules would change: without a connection, global `rules` over every
 * connection that follows them (no rules: the shipped ones); with one, its own `rules` (no rules:
 * the global ones again).
 */
export function useRulesPreview(): (
  connectionId: string | null,
  rules: AddressRules | null,
) => Promise<PreviewAnswer> {
  const client = useClient();
  return async (connectionId, rules) => {
    const answer = await client
      .query(PREVIEW_ADDRESS_RULES, { connectionId, rules }, { requestPolicy: "network-only" })
      .toPromise();
    const problems = problemsOfAnswer(answer);
    if (problems) return { problems };
    const result = answer.data?.result;
    return result && "data" in result && result.data
      ? { preview: result.data }
      : { problems: [{ field: null, message: t("common.failed") }] };
  };
}

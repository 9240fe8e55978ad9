import { useState } from "react";
import { useMutation, useQuery } from "urql";
import { codeProblem } from "../account/code-outcome.ts";
import { graphql } from "../graphql/graphql.ts";
import { t } from "../i18n/i18n.ts";

const SETTING = graphql(`
  query TwoFactorRequired { isTwoFactorRequired }
`);

const SET = graphql(`
  mutation SetTwoFactorRequired($required: Boolean!) {
    result: setTwoFactorRequired(required: $required) {
      __typename
      ... on Error { message }
      ... on ValidationError { problems { message } }
    }
  }
`);

/** The administrator's switch "require two-factor for everyone" (MANAGE_USERS). */
export function RequireTwoFactor() {
  const [{ data }, reload] = useQuery({ query: SETTING, requestPolicy: "network-only" });
  const [, set] = useMutation(SET);
  const [problem, setProblem] = useState<string>();
  if (data === undefined) return null;
  return (
    <section className="card" aria-labelledby="require-two-factor">
      <h2 id="require-two-factor">{t("twoFactor.requireTitle")}</h2>
      <label className="check">
        <input
          type="checkbox"
          checked={data.isTwoFactorRequired}
          onChange={async (event) => {
            const result = await set({ required: event.target.checked });
            const outcome = result.data?.result;
            setProblem(
              outcome?.__typename === "MutationSetTwoFactorRequiredSuccess"
                ? undefined
                : codeProblem(outcome, result.error),
            );
            reload({ requestPolicy: "network-only" });
          }}
        />{" "}
        {t("twoFactor.requireLabel")}
      </label>
      <p className="muted">{t("twoFactor.requireHint")}</p>
      {problem && (
        <p role="alert" className="problem">
          {problem}
        </p>
      )}
    </section>
  );
}

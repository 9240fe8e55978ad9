import { useState } from "react";
import { useMutation } from "urql";
import { graphql } from "../graphql/graphql.ts";
import { t } from "../i18n/i18n.ts";
import { ConfirmButton } from "../ui/confirm-button.tsx";

const RESET = graphql(`
  mutation ResetTwoFactor($userId: ID!) { resetTwoFactor(userId: $userId) { id isTwoFactorEnabled } }
`);

/** An administrator's "reset two-factor" for a user who lost the phone and the recovery codes. */
export function ResetTwoFactorButton(props: {
  userId: string;
  username: string;
  onDone: () => void;
}) {
  const [, reset] = useMutation(RESET);
  const [problem, setProblem] = useState<string>();
  return (
    <>
      <ConfirmButton
        label={t("twoFactor.reset")}
        question={t("twoFactor.resetQuestion", { username: props.username })}
        confirmLabel={t("twoFactor.resetYes")}
        onConfirm={async () => {
          const result = await reset({ userId: props.userId });
          setProblem(result.error?.message);
          if (!result.error) props.onDone();
        }}
      />
      {problem && (
        <span role="alert" className="problem">
          {problem}
        </span>
      )}
    </>
  );
}

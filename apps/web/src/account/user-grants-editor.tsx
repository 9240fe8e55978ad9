import { useState } from "react";
import { useMutation, useQuery } from "urql";
import { graphql } from "../graphql/graphql.ts";
import { ValidationErrorFields } from "../graphql/validation-error.ts";
import { t } from "../i18n/i18n.ts";
import { GroupPicker } from "./group-picker.tsx";

export const GROUP_CHOICES = graphql(`
  query GroupChoices { connectionGroups { id name } }
`);

const SET_GRANTS = graphql(
  `
  mutation SetUserConnectionGrants($userId: ID!, $allConnections: Boolean!, $groupIds: [ID!]!) {
    result: setUserConnectionGrants(
      userId: $userId
      allConnections: $allConnections
      groupIds: $groupIds
    ) {
      __typename
      ...ValidationErrorFields
      ... on MutationSetUserConnectionGrantsSuccess { data { id allConnections } }
    }
  }
`,
  [ValidationErrorFields],
);

/** Which connections a user sees (MANAGE_USERS): every one, or chosen groups. */
export function UserGrantsEditor(props: {
  user: {
    id: string;
    username: string;
    allConnections: boolean;
    connectionGroups: { id: string }[];
  };
  onSaved?: () => void;
}) {
  const [{ data }] = useQuery({ query: GROUP_CHOICES });
  const [, save] = useMutation(SET_GRANTS);
  const [allConnections, setAll] = useState(props.user.allConnections);
  const [groupIds, setGroupIds] = useState(props.user.connectionGroups.map((g) => g.id));
  const [message, setMessage] = useState<string>();

  const submit = async () => {
    setMessage(undefined);
    const result = await save({ userId: props.user.id, allConnections, groupIds });
    const outcome = result.data?.result;
    if (outcome && "data" in outcome) {
      setMessage(t("groups.saved"));
      props.onSaved?.();
    } else setMessage(outcome && "message" in outcome ? outcome.message : result.error?.message);
  };

  return (
    <div className="grants">
      <GroupPicker
        legend={t("groups.sees", { name: props.user.username })}
        groups={data?.connectionGroups ?? []}
        value={groupIds}
        onChange={setGroupIds}
        allConnections={allConnections}
        onAllChange={setAll}
      />
      <button type="button" onClick={submit}>
        {t("groups.saveGrants")}
      </button>
      {message && <p role="status">{message}</p>}
    </div>
  );
}

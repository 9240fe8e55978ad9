import { useState } from "react";
import { useMutation, useQuery } from "urql";
import { graphql } from "../graphql/graphql.ts";
import { problemsOfAnswer, ValidationErrorFields } from "../graphql/validation-error.ts";
import { t } from "../i18n/i18n.ts";
import { ConfirmButton } from "../ui/confirm-button.tsx";
import { GroupForm } from "./group-form.tsx";

const GROUPS = graphql(`
  query ConnectionGroups {
    connectionGroups {
      id name description
      connections { id name kind }
      members { id username }
    }
  }
`);

const CREATE = graphql(
  `
  mutation CreateConnectionGroup($name: String!, $description: String) {
    result: createConnectionGroup(name: $name, description: $description) {
      __typename
      ...ValidationErrorFields
      ... on MutationCreateConnectionGroupSuccess { data { id } }
    }
  }
`,
  [ValidationErrorFields],
);

const UPDATE = graphql(
  `
  mutation UpdateConnectionGroup($id: ID!, $name: String, $description: String) {
    result: updateConnectionGroup(id: $id, name: $name, description: $description) {
      __typename
      ...ValidationErrorFields
      ... on MutationUpdateConnectionGroupSuccess { data { id name description } }
    }
  }
`,
  [ValidationErrorFields],
);

const DELETE = graphql(`
  mutation DeleteConnectionGroup($id: ID!) { deleteConnectionGroup(id: $id) }
`);

/** Connection groups ("tenants"): who sees which connections (MANAGE_USERS). */
export function GroupsPage() {
  const [{ data, error }, reload] = useQuery({ query: GROUPS, requestPolicy: "network-only" });
  const [, create] = useMutation(CREATE);
  const [, update] = useMutation(UPDATE);
  const [, remove] = useMutation(DELETE);
  const [editingId, setEditingId] = useState<string>();
  const refresh = () => reload({ requestPolicy: "network-only" });

  return (
    <div>
      <h1>{t("nav.groups")}</h1>
      <p className="muted">{t("groups.intro")}</p>
      <GroupForm
        className="card"
        idPrefix="group"
        label={t("groups.create")}
        initial={{ name: "", description: "" }}
        submitLabel={t("groups.create")}
        isReset
        onSave={async (draft) => {
          const found = problemsOfAnswer(await create(draft));
          if (!found) refresh();
          return found;
        }}
      >
        <h2>{t("groups.create")}</h2>
      </GroupForm>
      {error && <p role="alert">{error.message}</p>}
      {data && data.connectionGroups.length === 0 && <p className="muted">{t("groups.none")}</p>}
      <table className="list">
        <thead>
          <tr>
            <th scope="col">{t("groups.name")}</th>
            <th scope="col">{t("groups.connections")}</th>
            <th scope="col">{t("groups.members")}</th>
            <th scope="col">{t("common.actions")}</th>
          </tr>
        </thead>
        <tbody>
          {data?.connectionGroups.map((group) => (
            <tr key={group.id}>
              <td>
                {editingId === group.id ? (
                  <GroupForm
                    idPrefix={`group-${group.id}`}
                    label={t("groups.editTitle", { name: group.name })}
                    initial={{ name: group.name, description: group.description }}
                    submitLabel={t("common.save")}
                    onCancel={() => setEditingId(undefined)}
                    onSave={async (draft) => {
                      const found = problemsOfAnswer(await update({ id: group.id, ...draft }));
                      if (!found) {
                        setEditingId(undefined);
                        refresh();
                      }
                      return found;
                    }}
                  />
                ) : (
                  <>
                    {group.name}
                    {group.description && <div className="muted">{group.description}</div>}
                  </>
                )}
              </td>
              <td>{group.connections.map((c) => c.name).join(", ") || "—"}</td>
              <td>{group.members?.map((m) => m.username).join(", ") || "—"}</td>
              <td>
                <span className="actions">
                  {editingId !== group.id && (
                    <>
                      <button
                        type="button"
                        aria-label={t("groups.editTitle", { name: group.name })}
                        onClick={() => setEditingId(group.id)}
                      >
                        {t("common.edit")}
                      </button>{" "}
                    </>
                  )}
                  <ConfirmButton
                    label={t("groups.delete")}
                    question={t("groups.deleteQuestion", { name: group.name })}
                    confirmLabel={t("common.confirmYes")}
                    onConfirm={async () => {
                      await remove({ id: group.id });
                      refresh();
                    }}
                  />
                </span>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

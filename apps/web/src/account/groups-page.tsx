import { type FormEvent, useState } from "react";
import { useMutation, useQuery } from "urql";
import { graphql } from "../graphql/graphql.ts";
import { ValidationErrorFields } from "../graphql/validation-error.ts";
import { t } from "../i18n/i18n.ts";
import { ConfirmButton } from "../ui/confirm-button.tsx";

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

const DELETE = graphql(`
  mutation DeleteConnectionGroup($id: ID!) { deleteConnectionGroup(id: $id) }
`);

/** Connection groups ("tenants"): who sees which connections (MANAGE_USERS). */
export function GroupsPage() {
  const [{ data, error }, reload] = useQuery({ query: GROUPS, requestPolicy: "network-only" });
  const [, create] = useMutation(CREATE);
  const [, remove] = useMutation(DELETE);
  const [name, setName] = useState("");
  const [description, setDescription] = useState("");
  const [problem, setProblem] = useState<string>();

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setProblem(undefined);
    const result = await create({ name, description });
    const outcome = result.data?.result;
    if (outcome && "data" in outcome) {
      setName("");
      setDescription("");
      reload({ requestPolicy: "network-only" });
    } else setProblem(outcome && "message" in outcome ? outcome.message : result.error?.message);
  };

  return (
    <div>
      <h1>{t("nav.groups")}</h1>
      <p className="muted">{t("groups.intro")}</p>
      <form onSubmit={submit} className="card">
        <h2>{t("groups.create")}</h2>
        <div className="field">
          <label htmlFor="group-name">{t("groups.name")}</label>
          <input id="group-name" required value={name} onChange={(e) => setName(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="group-description">{t("groups.description")}</label>
          <input
            id="group-description"
            value={description}
            onChange={(e) => setDescription(e.target.value)}
          />
        </div>
        {problem && (
          <p role="alert" className="problem">
            {problem}
          </p>
        )}
        <button type="submit" className="primary">
          {t("groups.create")}
        </button>
      </form>
      {error && <p role="alert">{error.message}</p>}
      <table className="list">
        <thead>
          <tr>
            <th scope="col">{t("groups.name")}</th>
            <th scope="col">{t("groups.connections")}</th>
            <th scope="col">{t("groups.members")}</th>
            <th scope="col">
              <span className="visually-hidden">{t("groups.delete")}</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {data?.connectionGroups.map((group) => (
            <tr key={group.id}>
              <td>
                {group.name}
                {group.description && <div className="muted">{group.description}</div>}
              </td>
              <td>{group.connections.map((c) => c.name).join(", ") || "—"}</td>
              <td>{group.members?.map((m) => m.username).join(", ") || "—"}</td>
              <td>
                <ConfirmButton
                  label={t("groups.delete")}
                  question={t("groups.deleteQuestion", { name: group.name })}
                  onConfirm={async () => {
                    await remove({ id: group.id });
                    reload({ requestPolicy: "network-only" });
                  }}
                />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

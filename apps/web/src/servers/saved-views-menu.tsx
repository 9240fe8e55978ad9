import { viewQueryOf } from "@hyperlens/shared";
import { useEffect, useRef, useState } from "react";
import { useMutation, useQuery } from "urql";
import { graphql } from "../graphql/graphql.ts";
import { problemsOfAnswer, ValidationErrorFields } from "../graphql/validation-error.ts";
import { t } from "../i18n/i18n.ts";
import { AppLink } from "../shell/app-link.tsx";
import { ConfirmButton } from "../ui/confirm-button.tsx";
import { CopyButton } from "../ui/copy-button.tsx";
import { serversPath } from "./servers-path.ts";
import { ViewNameForm } from "./view-name-form.tsx";

const SAVED_VIEWS = graphql(`
  query SavedViews { savedViews { id name query } }
`);

const SAVE_VIEW = graphql(
  `
  mutation SaveView($name: String!, $query: String!) {
    result: saveView(name: $name, query: $query) {
      __typename
      ...ValidationErrorFields
      ... on MutationSaveViewSuccess { data { id name query } }
    }
  }
`,
  [ValidationErrorFields],
);

const RENAME_VIEW = graphql(
  `
  mutation RenameView($id: ID!, $name: String!) {
    result: renameView(id: $id, name: $name) {
      __typename
      ...ValidationErrorFields
      ... on MutationRenameViewSuccess { data { id name } }
    }
  }
`,
  [ValidationErrorFields],
);

const DELETE_VIEW = graphql(`
  mutation DeleteView($id: ID!) { deleteView(id: $id) }
`);

// The list is empty at first, so urql cannot know from it that a saved view changes it.
const LIST_CONTEXT = { additionalTypenames: ["SavedView"] };

/**
 * The Views menu of the Servers page (docs/behaviour.md §9.47): save what the table shows now
 * under a name, open a saved view, copy its link, rename or delete it.
 */
export function SavedViewsMenu(props: { params: URLSearchParams }) {
  const menu = useRef<HTMLDetailsElement>(null);
  const [{ data, error }] = useQuery({ query: SAVED_VIEWS, context: LIST_CONTEXT });
  const [, save] = useMutation(SAVE_VIEW);
  const [, rename] = useMutation(RENAME_VIEW);
  const [, remove] = useMutation(DELETE_VIEW);
  const [renamingId, setRenamingId] = useState<string>();
  const views = data?.savedViews ?? [];
  const shown = viewQueryOf(props.params);
  // Following a view's link (or any change to what the table shows) closes the menu.
  // biome-ignore lint/correctness/useExhaustiveDependencies: `shown` changing is the reason
  useEffect(() => {
    if (menu.current) menu.current.open = false;
  }, [shown]);

  return (
    <details className="menu views-menu" ref={menu}>
      <summary>{t("views.menu")}</summary>
      <div className="menu-panel">
        <ViewNameForm
          id="save-view-name"
          label={t("views.saveCurrent")}
          initial=""
          submitLabel={t("views.save")}
          onSave={async (name) =>
            problemsOfAnswer(await save({ name, query: shown }, LIST_CONTEXT))
          }
        />
        {error && <p role="alert">{error.message}</p>}
        {data && views.length === 0 && <p className="muted">{t("views.none")}</p>}
        <ul className="saved-views" aria-label={t("views.saved")}>
          {views.map((view) => (
            <li key={view.id}>
              {renamingId === view.id ? (
                <ViewNameForm
                  id={`rename-view-${view.id}`}
                  label={t("views.renameNamed", { name: view.name })}
                  initial={view.name}
                  submitLabel={t("views.rename")}
                  onCancel={() => setRenamingId(undefined)}
                  onSave={async (name) => {
                    const found = problemsOfAnswer(await rename({ id: view.id, name }));
                    if (!found) setRenamingId(undefined);
                    return found;
                  }}
                />
              ) : (
                <>
                  <AppLink href={serversPath(view.query)}>{view.name}</AppLink>{" "}
                  <CopyButton
                    value={`${window.location.origin}${serversPath(view.query)}`}
                    label={t("views.copyLink", { name: view.name })}
                  />{" "}
                  <button
                    type="button"
                    aria-label={t("views.renameNamed", { name: view.name })}
                    onClick={() => setRenamingId(view.id)}
                  >
                    {t("views.rename")}
                  </button>{" "}
                  <ConfirmButton
                    label={t("common.delete")}
                    question={t("views.deleteQuestion", { name: view.name })}
                    confirmLabel={t("common.confirmYes")}
                    onConfirm={() => void remove({ id: view.id }, LIST_CONTEXT)}
                  />
                </>
              )}
            </li>
          ))}
        </ul>
      </div>
    </details>
  );
}

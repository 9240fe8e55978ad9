// `/servers?view=<id>` opens one of the viewer's saved views: the address becomes the view's own
// query string (docs/behaviour.md §9.47). Another user's view answers as one that does not exist.
import { useEffect } from "react";
import { useQuery } from "urql";
import { graphql } from "../graphql/graphql.ts";
import { navigate } from "../shell/router.ts";
import { GUEST_PARAM } from "./guest-drawer.ts";
import { serversPath } from "./servers-path.ts";

const SAVED_VIEW = graphql(`
  query SavedView($id: ID!) { node(id: $id) { ... on SavedView { id query } } }
`);

/** The parameter naming a saved view to open. */
export const VIEW_PARAM = "view";

/** Opens the view `view=` names; answers true when that view does not exist for this viewer. */
export function useSavedViewLink(params: URLSearchParams): { isMissing: boolean } {
  const id = params.get(VIEW_PARAM) ?? "";
  const guest = params.get(GUEST_PARAM);
  const [{ data, error, fetching }] = useQuery({
    query: SAVED_VIEW,
    variables: { id },
    pause: id === "",
    requestPolicy: "network-only",
  });
  const query = data?.node && "query" in data.node ? data.node.query : undefined;
  useEffect(() => {
    if (query === undefined) return;
    const withGuest = new URLSearchParams(query);
    if (guest) withGuest.set(GUEST_PARAM, guest);
    navigate(serversPath(withGuest.toString()), { replace: true });
  }, [query, guest]);
  return { isMissing: id !== "" && !fetching && query === undefined && (!!data || !!error) };
}

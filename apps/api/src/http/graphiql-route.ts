// GraphiQL is a page of the web build (apps/web/graphiql), not Yoga's, whose page loads its code
// from a public CDN and stays blank offline (docs/behaviour.md §11.3). A browser that opens
// /graphql as a page is sent there.
import type { IncomingMessage } from "node:http";

export const GRAPHIQL_PATH = "/graphiql/";

/** A browser's GET of the endpoint as a page: HTML accepted and no operation in the address. */
export function isGraphiqlPageRequest(req: IncomingMessage): boolean {
  if (req.method !== "GET" || !req.headers.accept?.includes("text/html")) return false;
  return !new URL(req.url ?? "/", "http://localhost").searchParams.has("query");
}

// GraphQL over HTTP to the scenario's server, as an integrator with an API token would call it.

/** Sends one operation; rejects on GraphQL errors. */
export type GraphqlCall = <T>(query: string, variables?: Record<string, unknown>) => Promise<T>;

/** A caller bound to a server and a bearer token. */
export function graphqlClient(url: string, token: string): GraphqlCall {
  return async <T>(query: string, variables: Record<string, unknown> = {}) => {
    const res = await fetch(`${url}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify({ query, variables }),
    });
    const body = (await res.json()) as { data?: T; errors?: unknown };
    if (body.errors || body.data === undefined) {
      throw new Error(`GraphQL: ${JSON.stringify(body.errors ?? body)}`);
    }
    return body.data;
  };
}

// The fields of a connection that Settings, the Servers page and Sync show; the connections query
// (app.tsx) and the save mutations (connection-form.tsx) both read them.
import { graphql, type ResultOf } from "../graphql/graphql.ts";

export const ConnectionFields = graphql(`
  fragment ConnectionFields on Connection {
    id
    name
    kind
    url
    username
    tokenId
    hasSecret
    caPem
    verifyTls
    isProvider
    isActive
    syncIntervalSeconds
    maxConcurrentRequests
    maxRequestsPerNode
    lightPollSeconds
    lastSyncAt
    lastSuccessAt
    lastSyncOutcome
    lastSyncMessage
    lastSyncMessageTexts { code params message }
    consecutiveFailures
    privilegeWarning
    groups { id name }
  }
`);

/** A connection as the web app knows it. */
export type Connection = ResultOf<typeof ConnectionFields>;

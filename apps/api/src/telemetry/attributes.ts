// Span attribute names of our own (the HTTP and GraphQL ones follow OpenTelemetry's semantic
// conventions). Values are ids, names, counts and classes: never a secret, a variable or a body.

/** The connection a span works for. */
export const CONNECTION_ID = "hyperlens.connection.id";
/** PROXMOX, VCD or VCENTER. */
export const CONNECTION_KIND = "hyperlens.connection.kind";
/** The sync's correlation id, as on its SyncRun row and its log lines. */
export const CORRELATION_ID = "hyperlens.correlation_id";

// No client breaks unannounced: every breaking change since the last release's printed schema
// (graphql-js findBreakingChanges) must be one that docs/api.md and CHANGELOG.md announce.
import { readFileSync } from "node:fs";
import path from "node:path";
import { buildSchema, findBreakingChanges } from "graphql";
import { describe, expect, it } from "vitest";
import { schema } from "./index.ts";

const LAST_RELEASE = "v0.2.0";

// The one breaking rename before 1.0 (docs/api.md, "The one breaking rename before 1.0"; CHANGELOG
// [Unreleased], Changed (breaking)): the Relay connection and edge types named after their node.
// Any other entry here is a new breaking change and needs the same announcement first.
const ANNOUNCED = [
  "FIELD_CHANGED_KIND: Query.auditLog changed type from QueryAuditLogConnection! to AuditLogEntryConnection!.",
  "FIELD_CHANGED_KIND: Query.syncRuns changed type from QuerySyncRunsConnection! to SyncRunConnection!.",
  "FIELD_CHANGED_KIND: Query.virtualMachines changed type from QueryVirtualMachinesConnection! to VirtualMachineConnection!.",
  "TYPE_REMOVED: QueryAuditLogConnection was removed.",
  "TYPE_REMOVED: QueryAuditLogConnectionEdge was removed.",
  "TYPE_REMOVED: QuerySyncRunsConnection was removed.",
  "TYPE_REMOVED: QuerySyncRunsConnectionEdge was removed.",
  "TYPE_REMOVED: QueryVirtualMachinesConnection was removed.",
  "TYPE_REMOVED: QueryVirtualMachinesConnectionEdge was removed.",
];

describe("breaking changes", () => {
  it(`since ${LAST_RELEASE} are only the announced ones`, () => {
    const released = buildSchema(
      readFileSync(
        path.join(import.meta.dirname, `../../schema-releases/${LAST_RELEASE}.graphql`),
        "utf8",
      ),
    );
    const breaking = findBreakingChanges(released, schema).map(
      (change) => `${change.type}: ${change.description}`,
    );
    expect(breaking.sort()).toEqual([...ANNOUNCED].sort());
  });
});

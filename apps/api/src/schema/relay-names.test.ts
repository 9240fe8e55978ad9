// Relay connections are named after their node, as GitHub's and Relay's own schemas name them
// (docs/api.md, "Paging"): a client's fragments say `on VirtualMachineConnection`, never a name
// Pothos derived from the field that happens to return it.
import { type GraphQLObjectType, getNamedType, isObjectType } from "graphql";
import { describe, expect, it } from "vitest";
import { schema } from "./index.ts";

/** The object types shaped like a Relay connection: `edges` and `pageInfo`. */
function connectionTypes(): GraphQLObjectType[] {
  return Object.values(schema.getTypeMap())
    .filter(isObjectType)
    .filter((type) => "edges" in type.getFields() && "pageInfo" in type.getFields());
}

describe("Relay connection names", () => {
  it("names every connection XConnection and its edge XEdge after the node type X", () => {
    const names = connectionTypes().map((connection) => {
      const edge = getNamedType(connection.getFields().edges?.type);
      const node = isObjectType(edge) ? getNamedType(edge.getFields().node?.type) : undefined;
      return { connection: connection.name, edge: edge?.name, node: node?.name };
    });
    expect(names).toEqual(
      names.map(({ node }) => ({ connection: `${node}Connection`, edge: `${node}Edge`, node })),
    );
  });

  it("answers the paged Query fields with one connection type per node", () => {
    const query = schema.getQueryType();
    const returned = ["auditLog", "syncRuns", "virtualMachines"].map((field) =>
      getNamedType(query?.getFields()[field]?.type)?.toString(),
    );
    expect(returned).toEqual([
      "AuditLogEntryConnection",
      "SyncRunConnection",
      "VirtualMachineConnection",
    ]);
  });
});

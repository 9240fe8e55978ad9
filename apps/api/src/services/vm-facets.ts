// The values the Servers page's filter bar offers (docs/behaviour.md §9.43): what exists among the
// live guests of the connections the viewer sees, per filter, in order.
import { Prisma, type PrismaClient } from "@hyperlens/db";
import { NAMED_LOCATION_FIELDS } from "@hyperlens/shared";
import type { Viewer } from "../auth/viewer.ts";
import { ofVisibleConnections } from "../auth/visibility.ts";

/** At most this many values per filter: a menu, not an export. */
export const FACET_LIMIT = 500;

const COLUMNS = [...NAMED_LOCATION_FIELDS, "guestOs"] as const;
type FacetColumn = (typeof COLUMNS)[number];

/** Each filter's distinct values, sorted. */
export type VmFacets = Record<FacetColumn | "tags", string[]>;

/** Each facet's values, one row each (NULL where a guest has none). */
const VALUES_OF: Record<FacetColumn | "tags", Prisma.Sql> = {
  ...(Object.fromEntries(
    COLUMNS.map((column) => [
      column,
      Prisma.sql`SELECT ${Prisma.raw(`"${column}"`)} AS value, "connectionId", "removedAt" FROM virtual_machines`,
    ]),
  ) as Record<FacetColumn, Prisma.Sql>),
  tags: Prisma.sql`SELECT value, "connectionId", "removedAt" FROM virtual_machines, unnest(tags) AS value`,
};

async function distinctValues(
  prisma: PrismaClient,
  facet: FacetColumn | "tags",
  viewer: Viewer | null,
): Promise<string[]> {
  // TRAP: docs/behaviour.md §7.9 — a value offered from a connection the viewer is not granted names what it holds.
  const ids = ofVisibleConnections(viewer).connectionId?.in;
  const rows = await prisma.$queryRaw<{ value: string }[]>`
    SELECT DISTINCT value FROM (${VALUES_OF[facet]}) AS offered
    WHERE value IS NOT NULL AND "removedAt" IS NULL
    ${ids ? Prisma.sql`AND "connectionId" = ANY(${ids}::uuid[])` : Prisma.empty}
    ORDER BY value LIMIT ${FACET_LIMIT}`;
  return rows.map((row) => row.value);
}

/** The values each filter can take for this viewer. */
export async function vmFacets(prisma: PrismaClient, viewer: Viewer | null): Promise<VmFacets> {
  const facets = [...COLUMNS, "tags"] as const;
  const values = await Promise.all(facets.map((facet) => distinctValues(prisma, facet, viewer)));
  return Object.fromEntries(facets.map((facet, i) => [facet, values[i] ?? []])) as VmFacets;
}

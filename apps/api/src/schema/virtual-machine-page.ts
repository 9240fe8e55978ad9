// Loading one page of the unified list. At 50,000 guests a filtered page must not cost a pass over
// the wide rows: the page's ids come first (from the live-name index alone when a filter skips
// its entries), then only those rows are read with what the selection needs — in one statement
// with their NICs and addresses when the selection allows. The total is counted alongside.
import { type Prisma, type PrismaClient, rowsByIdReader } from "@hyperlens/db";
import { type GraphQLResolveInfo, Kind, type SelectionSetNode } from "graphql";

/** What Pothos hands a connection resolver: paging (take/skip/cursor) plus the nested selection. */
type PageQuery = Pick<Prisma.VirtualMachineFindManyArgs, "take" | "skip" | "cursor"> &
  Omit<Prisma.VirtualMachineFindManyArgs, "where" | "orderBy">;

/** Reads the page's ids with `read`, or serves them again while they are still exact. */
export type PageIds = (key: string, read: () => Promise<string[]>) => Promise<string[]>;

const readAnew: PageIds = (_key, read) => read();

/**
 * The rows of one page, in page order, with what `query` selects. `idsFirst`: read the page's ids
 * on their own first even when Prisma then reads the rows — worth it only when the filter makes
 * the database skip rows. `pageIds` may keep the ids of a page; the rows are always read anew.
 */
export async function findVmPage(
  prisma: PrismaClient,
  query: PageQuery,
  where: Prisma.VirtualMachineWhereInput,
  orderBy: Prisma.VirtualMachineOrderByWithRelationInput[],
  idsFirst: boolean,
  pageIds: PageIds = readAnew,
) {
  const { take, skip, cursor, ...selection } = query;
  const reader = rowsByIdReader("VirtualMachine", selection);
  if (!reader && !idsFirst) return prisma.virtualMachine.findMany({ ...query, where, orderBy });
  const paging = { where, orderBy, take, skip, cursor };
  const ids = await pageIds(JSON.stringify(paging), async () => {
    const page = await prisma.virtualMachine.findMany({ ...paging, select: { id: true } });
    return page.map((row) => row.id);
  });
  if (ids.length === 0) return [];
  type Row = Awaited<ReturnType<typeof prisma.virtualMachine.findMany<typeof query>>>[number];
  if (reader) return reader.read<Row>(prisma, ids);
  const rows = await prisma.virtualMachine.findMany({ ...selection, where: { id: { in: ids } } });
  const byId = new Map(rows.map((row) => [row.id, row]));
  // A row removed between the two reads is left out rather than failing the page.
  return ids.flatMap((id) => byId.get(id) ?? []);
}

function selects(
  set: SelectionSetNode | undefined,
  name: string,
  info: GraphQLResolveInfo,
): boolean {
  return (set?.selections ?? []).some((selection) => {
    if (selection.kind === Kind.FIELD) return selection.name.value === name;
    if (selection.kind === Kind.INLINE_FRAGMENT) return selects(selection.selectionSet, name, info);
    return selects(info.fragments[selection.name.value]?.selectionSet, name, info);
  });
}

/** Whether the field being resolved asks for the child field `name` (fragments included). */
export function selectsField(info: GraphQLResolveInfo, name: string): boolean {
  return info.fieldNodes.some((node) => selects(node.selectionSet, name, info));
}

/**
 * Counts started while a page loads, by the connection's `args` object (the same object reaches
 * the page resolver and the `totalCount` resolver of one field), so the count runs beside the
 * page instead of after it.
 */
export class CountAlongside {
  readonly #counts = new WeakMap<object, Promise<number>>();

  /** Starts the count for this field's arguments. */
  start(args: object, count: () => Promise<number>): void {
    const counting = count();
    // Observed here too: a page that fails never reaches totalCount, whose error would go unheard.
    counting.catch(() => {});
    this.#counts.set(args, counting);
  }

  /** The count started for these arguments, or a new one. */
  take(args: object, count: () => Promise<number>): Promise<number> {
    const started = this.#counts.get(args);
    this.#counts.delete(args);
    return started ?? count();
  }
}

// The rows of a list page read three ways on one PostgreSQL database, in this process, side by
// side: the one-statement reader (packages/db/src/rows-by-id.ts), Prisma's own `relationJoins`
// (relationLoadStrategy "join") and Prisma's default (a statement per relation). relationJoins is a
// preview feature the product's client is generated without, so a client with it is generated
// here, into node_modules/.cache, from the same schema. The three must return the same rows.
import { execFileSync } from "node:child_process";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import { openDatabase, type Prisma, rowsByIdReader } from "@hyperlens/db";

const root = path.resolve(import.meta.dirname, "..");
const cacheDir = path.join(root, "node_modules/.cache/hyperlens-bench-relation-joins");

/**
 * What Pothos asks of findVmPage for the list bench's query (the columns every row is read with,
 * NICs in key order, accepted addresses): printed from virtual-machine-page.ts once.
 */
const PAGE_SELECTION = {
  select: {
    nics: { orderBy: { key: "asc" } },
    ips: { where: { isAccepted: true }, orderBy: [{ isAccepted: "desc" }, { address: "asc" }] },
    id: true,
    source: true,
    name: true,
    state: true,
    kind: true,
    cpuCount: true,
    memoryBytes: true,
    diskTotalBytes: true,
    confirmation: true,
    nodeName: true,
    clusterName: true,
    datacenterName: true,
    hostName: true,
    orgName: true,
    vdcName: true,
    vappName: true,
  },
} satisfies Prisma.VirtualMachineFindManyArgs;

const READS_PER_TERM = 20;

/** CPU time of this process in ms. */
function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

/** Generates a Prisma client with relationJoins from prisma/schema.prisma; returns its module. */
function generateRelationJoinsClient(): string {
  mkdirSync(cacheDir, { recursive: true });
  const schema = readFileSync(path.join(root, "prisma/schema.prisma"), "utf8")
    .replace(/generator pothos \{[^}]*\}\n/, "")
    .replace(
      /output\s*=\s*"[^"]*"/,
      `output = "${path.join(cacheDir, "client")}"\n  previewFeatures = ["relationJoins"]`,
    );
  writeFileSync(path.join(cacheDir, "schema.prisma"), schema);
  // The same engine settings as prisma/prisma.config.ts: nothing is downloaded.
  writeFileSync(
    path.join(cacheDir, "prisma.config.ts"),
    [
      'process.env.PRISMA_SCHEMA_ENGINE_BINARY ??= "/bin/false";',
      'process.env.PRISMA_QUERY_ENGINE_LIBRARY ??= "/bin/false";',
      'process.env.CHECKPOINT_DISABLE ??= "1";',
      'import { defineConfig } from "prisma/config";',
      `export default defineConfig({ schema: ${JSON.stringify(path.join(cacheDir, "schema.prisma"))} });`,
    ].join("\n"),
  );
  execFileSync("npx", ["prisma", "generate", "--config", path.join(cacheDir, "prisma.config.ts")], {
    cwd: root,
    stdio: "ignore",
  });
  return path.join(cacheDir, "client/client.ts");
}

/** CPU per read (ms) of each way, over the first page of each search term. */
export interface ReadStrategyCpu {
  reader: number;
  relationJoins: number;
  prismaDefault: number;
}

/** Measures the three ways on the database at `url`, for the first page of each search term. */
export async function measureListReadStrategies(
  url: string,
  searchTerms: string[],
): Promise<ReadStrategyCpu> {
  const clientModule = generateRelationJoinsClient();
  const { PrismaClient: JoinClient } = await import(clientModule);
  const { PrismaPg } = await import("@prisma/adapter-pg");
  const joins = new JoinClient({ adapter: new PrismaPg({ connectionString: url }) });
  const db = await openDatabase({ kind: "postgres", url });
  try {
    const reader = rowsByIdReader("VirtualMachine", PAGE_SELECTION);
    if (!reader) throw new Error("the reader declined the list page's selection");
    const pages: string[][] = [];
    for (const term of searchTerms) {
      const page = await db.prisma.virtualMachine.findMany({
        where: { name: { contains: term } },
        orderBy: [{ nameSort: "asc" }, { id: "asc" }],
        take: 100,
        select: { id: true },
      });
      pages.push(page.map((row) => row.id));
    }
    const byIdOrder = <T extends { id: string }>(ids: string[], rows: T[]) => {
      const byId = new Map(rows.map((row) => [row.id, row]));
      return ids.map((id) => byId.get(id));
    };
    const ways = {
      reader: (ids: string[]) => reader.read<{ id: string }>(db.prisma, ids),
      relationJoins: async (ids: string[]) =>
        byIdOrder(
          ids,
          await joins.virtualMachine.findMany({
            ...PAGE_SELECTION,
            relationLoadStrategy: "join",
            where: { id: { in: ids } },
          }),
        ),
      prismaDefault: async (ids: string[]) =>
        byIdOrder(
          ids,
          await db.prisma.virtualMachine.findMany({
            ...PAGE_SELECTION,
            where: { id: { in: ids } },
          }),
        ),
    };
    for (const ids of pages) {
      const [byReader, ...others] = await Promise.all(Object.values(ways).map((read) => read(ids)));
      if (!others.every((rows) => isDeepStrictEqual(rows, byReader))) {
        throw new Error("the three ways of reading a page returned different rows");
      }
    }
    const cpu = { reader: 0, relationJoins: 0, prismaDefault: 0 };
    // Interleaved rounds, so load from elsewhere falls on each way alike.
    for (let round = 0; round < READS_PER_TERM; round++) {
      for (const [name, read] of Object.entries(ways) as [
        keyof typeof ways,
        typeof ways.reader,
      ][]) {
        const before = cpuMs();
        for (const ids of pages) await read(ids);
        cpu[name] += cpuMs() - before;
      }
    }
    const reads = READS_PER_TERM * pages.length;
    return {
      reader: cpu.reader / reads,
      relationJoins: cpu.relationJoins / reads,
      prismaDefault: cpu.prismaDefault / reads,
    };
  } finally {
    await joins.$disconnect();
    await db.close();
  }
}

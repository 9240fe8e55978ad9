import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PrismaClient } from "./generated/prisma/client.ts";
import { rawQuery, rawTransaction } from "./raw-transaction.ts";
import { createTestDatabase, type TestDatabase } from "./testing/test-database.ts";

let db: TestDatabase;
const statements: string[] = [];
beforeAll(async () => {
  db = await createTestDatabase({ onQuery: (sql) => statements.push(sql) });
  await db.withExecutor((e) => e.exec("CREATE TABLE probes (name text NOT NULL)"));
});
afterAll(async () => db?.close());

const insertProbe = (name: string) => `INSERT INTO probes (name) VALUES ('${name}')`;
const probes = async () =>
  (await db.prisma.$queryRawUnsafe<{ name: string }[]>("SELECT name FROM probes")).map(
    (p) => p.name,
  );

describe("raw transactions", () => {
  it("commits every statement when the work resolves, and returns its result", async () => {
    const result = await rawTransaction(db.prisma, async (sql) => {
      await sql.$executeRawUnsafe(insertProbe("raw-a"));
      const rows = await sql.$queryRawUnsafe<{ n: number }[]>(
        "SELECT count(*)::int AS n FROM probes WHERE name = $1::text",
        "raw-a",
      );
      return rows[0]?.n;
    });
    expect(result).toBe(1);
    expect(await probes()).toContain("raw-a");
  });

  it("rolls every statement back when the work throws", async () => {
    await expect(
      rawTransaction(db.prisma, async (sql) => {
        await sql.$executeRawUnsafe(insertProbe("raw-b"));
        throw new Error("half-way");
      }),
    ).rejects.toThrow("half-way");
    expect(await probes()).not.toContain("raw-b");
  });

  it("reports each statement and the commit to the query listener, as Prisma does", async () => {
    statements.length = 0;
    await rawTransaction(db.prisma, async (sql) => sql.$executeRawUnsafe(insertProbe("raw-c")));
    expect(statements).toEqual(["BEGIN", insertProbe("raw-c"), "COMMIT"]);
  });

  it("lets the event loop turn between statements", async () => {
    let hasTurned = false;
    await rawTransaction(db.prisma, async (sql) => {
      setTimeout(() => {
        hasTurned = true;
      }, 0);
      for (let i = 0; i < 100 && !hasTurned; i++) await sql.$queryRawUnsafe("SELECT 1");
    });
    expect(hasTurned).toBe(true);
  });

  it("refuses a client openDatabase did not make", async () => {
    await expect(rawTransaction({} as PrismaClient, async () => 1)).rejects.toThrow(
      /not made by openDatabase/,
    );
  });
});

describe("raw statements", () => {
  const countOf = (name: string) =>
    rawQuery<{ n: number }>(
      db.prisma,
      "SELECT count(*)::int AS n FROM probes WHERE name = $1::text",
      [name],
    ).then((rows) => rows[0]?.n);

  it("runs one statement, reports it to the query listener and returns its rows", async () => {
    statements.length = 0;
    expect(await countOf("raw-a")).toBe(1);
    expect(statements).toHaveLength(1);
    expect(statements[0]).toMatch(/^SELECT count/);
  });

  it("never reads what a transaction in progress has not committed", async () => {
    let answer: Promise<number | undefined> = Promise.resolve(undefined);
    let answeredInside: number | undefined | "waiting";
    await rawTransaction(db.prisma, async (sql) => {
      await sql.$executeRawUnsafe(insertProbe("raw-d"));
      answer = countOf("raw-d");
      // PGlite, one session, cannot answer before the commit: a short wait shows it waiting. A
      // server answers at once from what was committed, so it is awaited (under load it may take
      // longer than any fixed wait; were it to wait for the commit, the test would time out).
      const waited = new Promise<"waiting">((resolve) => setTimeout(resolve, 50, "waiting"));
      answeredInside = db.kind === "pglite" ? await Promise.race([answer, waited]) : await answer;
    });
    expect(answeredInside).toBe(db.kind === "pglite" ? "waiting" : 0);
    expect(await answer).toBe(db.kind === "pglite" ? 1 : 0);
  });

  it("refuses a client openDatabase did not make", async () => {
    await expect(rawQuery({} as PrismaClient, "SELECT 1")).rejects.toThrow(
      /not made by openDatabase/,
    );
  });
});

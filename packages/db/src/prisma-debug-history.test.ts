import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, type TestDatabase } from "./testing/test-database.ts";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

const heapUsedMb = () => {
  gc();
  return process.memoryUsage().heapUsed / 2 ** 20;
};

describe("Prisma's debug history", () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase();
  });
  afterAll(async () => {
    await db?.close();
  });

  it("does not keep the parameters of finished statements reachable", async () => {
    const before = heapUsedMb();
    for (let i = 0; i < 20; i++) {
      // A fresh 1 MB string per statement, as a sync's chunk of guests as JSON text.
      const parameter = `${i}`.padEnd(1024 * 1024, "x");
      await db.prisma.$queryRawUnsafe("SELECT length($1::text) AS n", parameter);
      await db.prisma.$transaction((tx) =>
        tx.$executeRawUnsafe("SELECT length($1::text)", parameter),
      );
    }
    // Kept, they would be 40 MB: 20 statements on their own and 20 in transactions.
    expect(heapUsedMb() - before).toBeLessThan(8);
  });
});

import { describe, expect, it } from "vitest";
import { openDatabase } from "../../app/db/client.server";
import { instrumentPg, queryTimingStorage } from "../../app/db/query-timing.server";
import { createTestDatabase } from "../test-db";

/**
 * SERVER_TIMING on PostgreSQL: node-postgres queries of a request are counted too. A database test, so
 * that it runs in the suite's PostgreSQL pass (the embedded database's side is tests/server/server-timing.test.ts).
 */
describe("query timing on PostgreSQL", () => {
  it.runIf(Boolean(process.env.DATABASE_URL))("times node-postgres queries too (pool and transactions)", async () => {
    instrumentPg();
    const own = await createTestDatabase();
    const pg = await openDatabase({ url: own.url!, poolMax: 2 });
    try {
      const store = { ms: 0, count: 0 };
      await queryTimingStorage().run(store, async () => {
        await pg.pool!.query("select 1");
        await pg.db.execute("select 2" as never);
        await pg.db.transaction(async (tx) => {
          await tx.execute("select 3" as never);
        });
      });
      // select 1, select 2, begin, select 3, commit
      expect(store.count).toBe(5);
      expect(store.ms).toBeGreaterThan(0);
    } finally {
      await pg.close();
      await own.close();
    }
  });
});

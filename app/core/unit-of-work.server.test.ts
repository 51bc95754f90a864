import { eq } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "~/db/client.server";
import { auditLog, facilities } from "~/db/schema";
import type { MailPayload } from "~/mail/jobs.server";
import { sendEmailJob } from "~/mail/jobs.server";
import { createEntity } from "#tests/factories";
import { createTestDatabase } from "#tests/test-db";
import { createTestServices, type TestServices } from "#tests/test-context";
import type { ServiceContext } from "./context.server";
import { withStatement, withTx } from "./unit-of-work.server";
import { keptAnswersState } from "./kept-answers.server";

let database: Database;
let services: TestServices;
let entityId: number;
const delivered: MailPayload[] = [];

beforeAll(async () => {
  database = await createTestDatabase();
  // Workers on: a job that exists gets delivered, so "never delivered" is observable.
  services = await createTestServices(database, { work: true, mailer: { send: async (mail) => void delivered.push(mail as MailPayload) } });
  entityId = (await createEntity(database.db)).id;
});
afterAll(async () => {
  await services?.close();
  await database?.close();
});
beforeEach(() => {
  services.events.published.length = 0;
});

const ctx = (): ServiceContext => services.ctx(entityId, null, { requestId: "req-test" });
const mail = (subject: string) => ({ to: "someone@example.test", subject, text: "Hello" });

async function facilityNamed(name: string) {
  return database.db.select().from(facilities).where(eq(facilities.name, name));
}
async function auditFor(recordId: string) {
  return database.db.select().from(auditLog).where(eq(auditLog.recordId, recordId));
}
async function waitFor(probe: () => boolean, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  while (!probe()) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("unit of work", () => {
  it("runs each effect of a committed verb exactly once, after commit", async () => {
    const order: string[] = [];
    const result = await withTx(ctx(), async (tx, effects) => {
      await tx.db.insert(facilities).values({ entityId, shortId: 9001, name: "UoW committed" });
      effects.afterCommit(() => order.push("after-commit"));
      effects.onRollback(() => order.push("rollback"));
      effects.publish({ entityId, type: "test.committed" });
      await effects.audit({ action: "facility.create", recordType: "facility", recordId: "uow-1", details: { name: "UoW committed" } });
      await effects.enqueue(sendEmailJob, mail("committed"));
      order.push("work done");
      expect(services.events.published).toHaveLength(0); // not before commit
      return 42;
    });
    expect(result).toBe(42);
    expect(order).toEqual(["work done", "after-commit"]);
    expect(services.events.published).toEqual([{ entityId, type: "test.committed" }]);
    expect(await facilityNamed("UoW committed")).toHaveLength(1);
    const [audit] = await auditFor("uow-1");
    expect(audit).toMatchObject({ entityId, actorId: null, action: "facility.create", recordType: "facility", requestId: "req-test" });
    await waitFor(() => delivered.some((m) => m.subject === "committed"));
    expect(delivered.filter((m) => m.subject === "committed")).toHaveLength(1);
  });

  it("leaves no trace of a rolled-back verb: no row, audit, job, event or after-commit effect", async () => {
    const order: string[] = [];
    const failure = new Error("boom");
    await expect(
      withTx(ctx(), async (tx, effects) => {
        await tx.db.insert(facilities).values({ entityId, shortId: 9002, name: "UoW rolled back" });
        effects.afterCommit(() => order.push("after-commit"));
        effects.onRollback(() => order.push("rollback"));
        effects.publish({ entityId, type: "test.rolledBack" });
        await effects.audit({ action: "facility.create", recordType: "facility", recordId: "uow-2" });
        await effects.enqueue(sendEmailJob, mail("rolled back"));
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect(order).toEqual(["rollback"]);
    expect(services.events.published).toHaveLength(0);
    expect(await facilityNamed("UoW rolled back")).toHaveLength(0);
    expect(await auditFor("uow-2")).toHaveLength(0);
    const jobs = await services.queued(sendEmailJob);
    expect(jobs.map((j) => j.data.subject)).not.toContain("rolled back");

    // A job committed afterwards is delivered; the rolled-back one never is.
    await withTx(ctx(), async (_tx, effects) => void (await effects.enqueue(sendEmailJob, mail("after the rollback"))));
    await waitFor(() => delivered.some((m) => m.subject === "after the rollback"));
    expect(delivered.map((m) => m.subject)).not.toContain("rolled back");
  });

  it("lets a nested verb join the outer transaction: its effects wait for the outer commit", async () => {
    const order: string[] = [];
    await expect(
      withTx(ctx(), async (outer) => {
        await withTx(outer, async (inner, effects) => {
          expect(inner.db).toBe(outer.db);
          await inner.db.insert(facilities).values({ entityId, shortId: 9003, name: "UoW nested" });
          effects.afterCommit(() => order.push("inner after-commit"));
          await effects.enqueue(sendEmailJob, mail("nested"));
        });
        order.push("inner returned");
        throw new Error("outer fails");
      }),
    ).rejects.toThrow("outer fails");
    expect(order).toEqual(["inner returned"]);
    expect(await facilityNamed("UoW nested")).toHaveLength(0);
    expect((await services.queued(sendEmailJob)).map((j) => j.data.subject)).not.toContain("nested");
  });

  it("keeps committed work when an after-commit effect fails, and still runs the others", async () => {
    const order: string[] = [];
    await withTx(ctx(), async (tx, effects) => {
      await tx.db.insert(facilities).values({ entityId, shortId: 9004, name: "UoW effect fails" });
      effects.afterCommit(() => {
        throw new Error("mail server down");
      });
      effects.afterCommit(() => order.push("second effect"));
    });
    expect(order).toEqual(["second effect"]);
    expect(await facilityNamed("UoW effect fails")).toHaveLength(1);
  });

  it("refuses a payload that does not fit the job's schema, inside the transaction", async () => {
    await expect(
      withTx(ctx(), async (tx, effects) => {
        await tx.db.insert(facilities).values({ entityId, shortId: 9005, name: "UoW bad payload" });
        await effects.enqueue(sendEmailJob, { to: "", subject: "", text: "" });
      }),
    ).rejects.toThrow();
    expect(await facilityNamed("UoW bad payload")).toHaveLength(0);
  });
});

/** Whether what was read after `stamp` for the unit's entity (or another) is still fresh (decision 019). */
const fresh = (stamp: number, entity = entityId) => keptAnswersState().isFresh(entity, stamp);

describe("the kept answers (what the report page cache trusts)", () => {
  it("go stale for the unit's entity after it commits, not for another entity, nor after a rollback", async () => {
    const before = keptAnswersState().stamp();
    await withTx(ctx(), async (tx) => {
      await tx.db.insert(facilities).values({ entityId, shortId: 9101, name: "Generation committed" });
    });
    expect(fresh(before)).toBe(false);
    expect(fresh(before, entityId + 1)).toBe(true);
    const afterCommit = keptAnswersState().stamp();
    await expect(
      withTx(ctx(), async (tx) => {
        await tx.db.insert(facilities).values({ entityId, shortId: 9102, name: "Generation rolled back" });
        throw new Error("refused");
      }),
    ).rejects.toThrow("refused");
    expect(fresh(afterCommit)).toBe(true);
  });
});

describe("a unit of one statement", () => {
  it("runs its effects after the statement, in order, and makes the entity's kept answers stale", async () => {
    const order: string[] = [];
    const before = keptAnswersState().stamp();
    const rows = await withStatement(ctx(), async (c, effects) => {
      effects.afterCommit(() => order.push("after"));
      effects.publish({ entityId, type: "test.statement" });
      const inserted = await c.db.insert(facilities).values({ entityId, shortId: 9201, name: "One statement" }).returning({ id: facilities.id });
      order.push("statement");
      expect(services.events.published).toHaveLength(0);
      return inserted;
    });
    expect(rows).toHaveLength(1);
    expect(order).toEqual(["statement", "after"]);
    expect(services.events.published.map((e) => e.type)).toEqual(["test.statement"]);
    expect(fresh(before)).toBe(false);
  });

  it("leaves the kept answers when told its statement changes nothing they read", async () => {
    const before = keptAnswersState().stamp();
    await withStatement(ctx(), (c) => c.db.insert(facilities).values({ entityId, shortId: 9202, name: "Unseen by kept answers" }), { changesKeptAnswers: false });
    expect(fresh(before)).toBe(true);
    expect(await facilityNamed("Unseen by kept answers")).toHaveLength(1);
  });

  it("runs none of its effects when the statement fails", async () => {
    const order: string[] = [];
    const before = keptAnswersState().stamp();
    await expect(
      withStatement(ctx(), async (c, effects) => {
        effects.afterCommit(() => order.push("after"));
        effects.publish({ entityId, type: "test.failed" });
        await c.db.insert(facilities).values({ entityId, shortId: 9201, name: "Same short id: refused" });
      }),
    ).rejects.toThrow();
    expect(order).toEqual([]);
    expect(services.events.published).toHaveLength(0);
    expect(fresh(before)).toBe(true);
  });

  it("joins the transaction of an enclosing unit: its effects wait for that commit", async () => {
    const order: string[] = [];
    await withTx(ctx(), async (tx) => {
      await withStatement(tx, async (c, effects) => {
        await c.db.insert(facilities).values({ entityId, shortId: 9301, name: "Joined statement" });
        effects.afterCommit(() => order.push("after"));
      });
      order.push("outer work done");
    });
    expect(order).toEqual(["outer work done", "after"]);
    expect(await facilityNamed("Joined statement")).toHaveLength(1);
  });
});

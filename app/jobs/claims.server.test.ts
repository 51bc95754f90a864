import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { defineJob } from "~/core/jobs.server";
import { startQueue } from "~/jobs/queue.server";
import type { Database } from "~/db/client.server";
import { jobQueue } from "~/db/schema";
import { createTestDatabase } from "#tests/test-db";

/**
 * A claim is a lease its worker renews while the handler runs: the job of a process that died is run
 * again by another within about a lease, and a job that runs longer than a lease is never taken from
 * the live worker that holds it.
 */
let database: Database;

beforeAll(async () => {
  database = await createTestDatabase();
});

afterAll(async () => {
  await database?.close();
});

const runs: string[] = [];
let holdFor = 0;
const slowJob = defineJob({
  name: "test-claims",
  payload: z.object({ label: z.string() }),
  retryLimit: 0,
  async handler({ label }) {
    runs.push(label);
    if (holdFor > 0) await new Promise((resolve) => setTimeout(resolve, holdFor));
  },
});
const services = () => ({ db: database.db, mailer: { send: async () => undefined } }) as never;
const row = async (id: number) => (await database.db.select().from(jobQueue).where(eq(jobQueue.id, id)))[0];

async function until(probe: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("job claims are leases", () => {
  it("runs again the job whose process died while holding it", async () => {
    runs.length = 0;
    holdFor = 0;
    // A process claimed the job (attempt 1 of 1), then died: its lease is left to run out.
    const [job] = await database.db
      .insert(jobQueue)
      .values({ name: slowJob.name, payload: { label: "orphan" }, maxAttempts: 1, state: "active", attempts: 1, lockedUntil: sql`now() + interval '1 second'` })
      .returning({ id: jobQueue.id });
    const queue = await startQueue({ database, jobs: [slowJob], work: true, pollingIntervalSeconds: 0.1, leaseSeconds: 1, services: services() });
    try {
      await until(async () => (await row(job.id)).state === "done", 20_000);
    } finally {
      await queue.stop();
    }
    expect(runs).toEqual(["orphan"]);
    expect(await row(job.id)).toMatchObject({ state: "done", attempts: 2, lockedUntil: null });
  });

  it("never frees the claim of a live worker whose handler outlasts the lease", async () => {
    runs.length = 0;
    holdFor = 3_000;
    const one = await startQueue({ database, jobs: [slowJob], work: true, pollingIntervalSeconds: 0.1, leaseSeconds: 1, services: services() });
    const two = await startQueue({ database, jobs: [slowJob], work: true, pollingIntervalSeconds: 0.1, leaseSeconds: 1, services: services() });
    try {
      const id = Number(await one.send(slowJob, { label: "long" }));
      await until(async () => (await row(id)).state === "done", 20_000);
      expect(runs).toEqual(["long"]);
      expect(await row(id)).toMatchObject({ state: "done", attempts: 1 });
    } finally {
      holdFor = 0;
      await Promise.all([one.stop(), two.stop()]);
    }
  });
});

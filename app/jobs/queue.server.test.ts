import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { eq, sql } from "drizzle-orm";
import { z } from "zod";
import { defineJob } from "~/core/jobs.server";
import { QUEUE_WAKE, startQueue } from "~/jobs/queue.server";
import { createEventBus } from "~/core/events.server";
import { EVERY_PROCESS } from "~/core/kept-answers.server";
import type { Database } from "~/db/client.server";
import { jobQueue } from "~/db/schema";
import { createMailer } from "~/mail/mailer.server";
import { sendEmailJob } from "~/mail/jobs.server";
import { createTestDatabase } from "#tests/test-db";
import { createTestServices, type TestServices } from "#tests/test-context";

let database: Database;
let services: TestServices;
const outbox = fs.mkdtempSync(path.join(os.tmpdir(), "caretaker-outbox-"));

beforeAll(async () => {
  database = await createTestDatabase();
  const mailer = createMailer({ from: "Caretaker <no-reply@caretaker.local>", outboxDir: outbox });
  services = await createTestServices(database, { work: true, mailer });
});

afterAll(async () => {
  await services?.close();
  await database?.close();
  fs.rmSync(outbox, { recursive: true, force: true });
});

function waitFor<T>(probe: () => T | undefined, timeoutMs = 30_000): Promise<T> {
  return waitForAsync(async () => probe(), timeoutMs);
}

async function waitForAsync<T>(probe: () => Promise<T | undefined>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe("job queue", () => {
  it("runs a queued email job through a worker into the outbox", async () => {
    const id = await services.queue.send(sendEmailJob, {
      to: "someone@example.test",
      subject: "Welcome to Caretaker",
      text: "Follow this link: http://localhost/x",
      link: "http://localhost/x",
    });
    expect(id).toMatch(/^\d+$/);

    const summary = await waitFor(() => fs.readdirSync(outbox).find((f) => f.endsWith(".json")));
    const written = JSON.parse(fs.readFileSync(path.join(outbox, summary), "utf8"));
    expect(written).toMatchObject({ to: "someone@example.test", subject: "Welcome to Caretaker", link: "http://localhost/x" });
    const eml = fs.readFileSync(path.join(outbox, summary.replace(/\.json$/, ".eml")), "utf8");
    expect(eml).toContain("Subject: Welcome to Caretaker");
    expect(eml).toContain("To: someone@example.test");

    const completed = await waitForAsync(async () => {
      const [job] = await database.db.select().from(jobQueue).where(eq(jobQueue.id, Number(id)));
      return job?.state === "done" ? job : undefined;
    });
    expect(completed.payload).toMatchObject({ to: "someone@example.test" });
    expect(completed.attempts).toBe(1);
  });

  it("refuses a job that is not in the registry, and a payload that does not fit its schema", async () => {
    await expect(services.queue.send({ ...sendEmailJob, name: "not-registered" }, { to: "a@b.c", subject: "x", text: "x" })).rejects.toThrow(
      /not in the registry/,
    );
    await expect(services.queue.send(sendEmailJob, { to: "", subject: "", text: "" })).rejects.toThrow();
  });
});

describe("job queue: failures, retries and claims", () => {
  const noServices = { db: undefined as never, mailer: { send: async () => undefined } };
  const runs: string[] = [];
  let failuresLeft = 0;
  const flakyJob = defineJob({
    name: "test-flaky",
    payload: z.object({ label: z.string() }),
    retryLimit: 2,
    async handler({ label }) {
      runs.push(label);
      if (failuresLeft > 0) {
        failuresLeft--;
        throw new Error(`failure of ${label}`);
      }
    },
  });
  const row = async (id: string) => (await database.db.select().from(jobQueue).where(eq(jobQueue.id, Number(id))))[0];
  /** Makes a job due now (the retry back-off is real time). */
  const dueNow = (id: string) => database.db.update(jobQueue).set({ runAfter: sql`now()` }).where(eq(jobQueue.id, Number(id)));

  it("tries a failed job again after a back-off, then fails it for good when its attempts run out", async () => {
    const queue = await startQueue({ database, jobs: [flakyJob], work: false, services: { ...noServices, db: database.db } });
    runs.length = 0;
    failuresLeft = 10;
    const id = await queue.send(flakyJob, { label: "a" });
    expect(await queue.drain()).toBe(1);
    let job = await row(id);
    expect(job).toMatchObject({ state: "pending", attempts: 1, lastError: "failure of a" });
    expect(job.runAfter.getTime()).toBeGreaterThan(Date.now() + 3_000); // 5 s back-off
    expect(await queue.drain()).toBe(0); // not due yet

    await dueNow(id);
    await queue.drain();
    await dueNow(id);
    await queue.drain();
    job = await row(id);
    expect(job).toMatchObject({ state: "failed", attempts: 3 });
    expect(job.finishedAt).not.toBeNull();
    expect(runs).toEqual(["a", "a", "a"]);
    await queue.stop();
  });

  it("completes a job that succeeds on a later attempt", async () => {
    const queue = await startQueue({ database, jobs: [flakyJob], work: false, services: { ...noServices, db: database.db } });
    runs.length = 0;
    failuresLeft = 1;
    const id = await queue.send(flakyJob, { label: "b" });
    await queue.drain();
    await dueNow(id);
    await queue.drain();
    expect(await row(id)).toMatchObject({ state: "done", attempts: 2 });
    await queue.stop();
  });

  it("fails a stored job whose payload no longer fits its schema, without running it", async () => {
    const queue = await startQueue({ database, jobs: [flakyJob], work: false, services: { ...noServices, db: database.db } });
    runs.length = 0;
    const [stored] = await database.db.insert(jobQueue).values({ name: flakyJob.name, payload: { label: 42 }, maxAttempts: 3 }).returning();
    await queue.drain();
    expect(await row(String(stored.id))).toMatchObject({ state: "failed", attempts: 1 });
    expect(runs).toEqual([]);
    await queue.stop();
  });

  it("waits for start-after, and leaves jobs of queues it does not know alone", async () => {
    const queue = await startQueue({ database, jobs: [flakyJob], work: false, services: { ...noServices, db: database.db } });
    runs.length = 0;
    failuresLeft = 0;
    const later = await queue.send(flakyJob, { label: "later" }, { startAfterSeconds: 3600 });
    const [foreign] = await database.db.insert(jobQueue).values({ name: "someone-else", payload: {}, maxAttempts: 1 }).returning();
    expect(await queue.drain()).toBe(0);
    expect((await row(later)).state).toBe("pending");
    expect((await row(String(foreign.id))).state).toBe("pending");
    await queue.stop();
  });

  it("runs a job at once when woken after its commit, not at the next poll", async () => {
    const queue = await startQueue({ database, jobs: [flakyJob], work: true, pollingIntervalSeconds: 3600, services: { ...noServices, db: database.db } });
    runs.length = 0;
    failuresLeft = 0;
    try {
      // The first round (at start) finds nothing; the next poll is an hour away.
      await new Promise((r) => setTimeout(r, 300));
      await queue.send(flakyJob, { label: "woken" });
      queue.wake();
      // Runs within the test at all: the poll that would otherwise find it is an hour away.
      await waitFor(() => (runs.includes("woken") ? true : undefined), 10_000);
      expect(runs).toEqual(["woken"]);
    } finally {
      await queue.stop();
    }
  });

  it("wakes the workers of another process when a process without workers sends a job", async () => {
    // Two processes: the bus carries the notice between them (LISTEN/NOTIFY on PostgreSQL).
    const bus = createEventBus();
    const worker = await startQueue({ database, jobs: [flakyJob], work: true, pollingIntervalSeconds: 3600, services: { ...noServices, db: database.db } });
    const unsubscribe = bus.subscribe(EVERY_PROCESS, (event) => event.type === QUEUE_WAKE && worker.wake());
    const web = await startQueue({
      database,
      jobs: [flakyJob],
      work: false,
      services: { ...noServices, db: database.db },
      wakeOthers: () => bus.publish({ entityId: EVERY_PROCESS, type: QUEUE_WAKE }),
    });
    runs.length = 0;
    failuresLeft = 0;
    try {
      await new Promise((r) => setTimeout(r, 300));
      await web.send(flakyJob, { label: "from the web process" });
      web.wake();
      await waitFor(() => (runs.includes("from the web process") ? true : undefined), 5_000);
    } finally {
      unsubscribe();
      await web.stop();
      await worker.stop();
    }
  });

  it("gives two workers different jobs, each exactly once", async () => {
    const one = await startQueue({ database, jobs: [flakyJob], work: false, services: { ...noServices, db: database.db } });
    const two = await startQueue({ database, jobs: [flakyJob], work: false, services: { ...noServices, db: database.db } });
    runs.length = 0;
    failuresLeft = 0;
    const labels = Array.from({ length: 12 }, (_, i) => `job-${i}`);
    for (const label of labels) await one.send(flakyJob, { label });
    const [a, b] = await Promise.all([one.drain(), two.drain()]);
    expect(a + b).toBe(12);
    expect([...runs].sort()).toEqual([...labels].sort());
    await one.stop();
    await two.stop();
  });
});

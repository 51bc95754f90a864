import { and, asc, eq, like, sql } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { defineJob } from "~/core/jobs.server";
import { defineSchedule, nextDueTime, type ScheduleDefinition, scheduleSpec } from "~/core/schedules.server";
import { openDatabase, type Database } from "~/db/client.server";
import { Role } from "~/db/enums";
import { jobQueue, jobSchedules, notificationDetails } from "~/db/schema";
import { createEntity, createNotification, createUser } from "#tests/factories";
import { createTestDatabase } from "#tests/test-db";
import { type StartedQueue, startQueue } from "./queue.server";
import { jobs, schedules } from "./registry.server";

/**
 * Schedules on the job queue (decision 020), on a real database with two "processes": on PostgreSQL two
 * queues with their own connection pools, on PGlite two queues on the one embedded database. Time is the
 * queues' injected clock, moved by the tests; the jobs themselves run as soon as they are enqueued.
 */
let database: Database;
let second: Database;

beforeAll(async () => {
  database = await createTestDatabase();
  second = database.url ? await openDatabase({ url: database.url, poolMax: 2 }) : database;
});

afterAll(async () => {
  if (second && second !== database) await second.close();
  await database?.close();
});

const MINUTE = 60_000;
/** Monday 2026-01-05 10:02 UTC (11:02 in Brussels). */
const START = Date.UTC(2026, 0, 5, 10, 2);
let clockMs = START;
const clock = () => clockMs;

const runs: Array<{ label: string; id: string; process: string }> = [];
const tickJob = defineJob({
  name: "test-tick",
  payload: z.object({ label: z.string() }),
  async handler({ label }, job) {
    runs.push({ label, id: job.id, process: (job.services as unknown as { process: string }).process });
  },
});
const runsOf = (label: string) => runs.filter((r) => r.label === label);

const started: StartedQueue[] = [];
/** A queue as one process starts it; `work` runs its polling workers. */
async function processOn(db: Database, name: string, list: readonly ScheduleDefinition[], work = false): Promise<StartedQueue> {
  const services = { db: db.db, mailer: { send: async () => undefined }, process: name };
  const queue = await startQueue({ database: db, jobs: [tickJob], schedules: list, clock, work, pollingIntervalSeconds: 0.02, services });
  started.push(queue);
  return queue;
}
async function stopAll() {
  await Promise.all(started.splice(0).map((q) => q.stop()));
}
// A failed test leaves no worker behind to take the next test's jobs.
afterEach(stopAll);

/** The keys of the jobs a schedule enqueued, in order. */
async function keysOf(name: string): Promise<string[]> {
  const rows = await database.db.select({ key: jobQueue.key }).from(jobQueue).where(like(jobQueue.key, `${name}@%`)).orderBy(asc(jobQueue.id));
  return rows.map((r) => r.key!);
}
const keyAt = (name: string, ms: number) => `${name}@${new Date(ms).toISOString()}`;
async function rowOf(name: string) {
  const [row] = await database.db.select().from(jobSchedules).where(eq(jobSchedules.name, name));
  return row;
}

async function waitFor(probe: () => boolean | Promise<boolean>, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error("timed out");
    await new Promise((r) => setTimeout(r, 10));
  }
}
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe(`schedules with two processes (${process.env.DATABASE_URL ? "PostgreSQL, two pools" : "PGlite"})`, () => {
  it("fire once per due time while both processes' workers poll", async () => {
    clockMs = START;
    const schedule = defineSchedule({ name: "test-workers", job: tickJob, payload: { label: "workers" }, everySeconds: 60 });
    await processOn(database, "one", [schedule], true);
    await processOn(second, "two", [schedule], true);
    await waitFor(async () => (await rowOf(schedule.name)) !== undefined);
    expect((await rowOf(schedule.name)).nextRunAt.getTime()).toBe(START + MINUTE);

    for (let i = 1; i <= 5; i++) {
      clockMs = START + i * MINUTE;
      await waitFor(() => runsOf("workers").length >= i);
      await pause(150); // several polls of both processes: nothing more may fire
      expect(runsOf("workers")).toHaveLength(i);
    }
    expect(await keysOf(schedule.name)).toEqual([1, 2, 3, 4, 5].map((i) => keyAt(schedule.name, START + i * MINUTE)));
    const row = await rowOf(schedule.name);
    expect(row.nextRunAt.getTime()).toBe(START + 6 * MINUTE);
    expect(row.lastDueAt?.getTime()).toBe(START + 5 * MINUTE);
  });

  it("fire once per due time when both processes drain at the same moment", async () => {
    clockMs = START;
    const schedule = defineSchedule({ name: "test-race", job: tickJob, payload: { label: "race" }, everySeconds: 30 });
    const one = await processOn(database, "one", [schedule]);
    const two = await processOn(second, "two", [schedule]);
    await Promise.all([one.drain(), two.drain()]);
    for (let i = 1; i <= 6; i++) {
      clockMs = START + i * 30_000;
      await Promise.all([one.drain(), two.drain(), one.drain(), two.drain()]);
      expect(runsOf("race")).toHaveLength(i);
    }
    expect(await keysOf(schedule.name)).toEqual([1, 2, 3, 4, 5, 6].map((i) => keyAt(schedule.name, START + i * 30_000)));
  });

  it("fire once after a restart that skipped several due times, then keep their rhythm", async () => {
    clockMs = START;
    const schedule = defineSchedule({ name: "test-restart", job: tickJob, payload: { label: "restart" }, everySeconds: 60 });
    let one = await processOn(database, "one", [schedule]);
    let two = await processOn(second, "two", [schedule]);
    await Promise.all([one.drain(), two.drain()]);
    clockMs = START + MINUTE;
    await Promise.all([one.drain(), two.drain()]);
    expect(runsOf("restart")).toHaveLength(1);

    // Both stop; five due times (minutes 2 to 6) pass while nothing runs.
    await stopAll();
    clockMs = START + 6 * MINUTE + 30_000;
    one = await processOn(database, "one", [schedule]);
    two = await processOn(second, "two", [schedule]);
    await Promise.all([one.drain(), two.drain(), one.drain(), two.drain()]);
    expect(runsOf("restart")).toHaveLength(2);
    expect(await keysOf(schedule.name)).toEqual([keyAt(schedule.name, START + MINUTE), keyAt(schedule.name, START + 2 * MINUTE)]);
    expect((await rowOf(schedule.name)).nextRunAt.getTime()).toBe(START + 7 * MINUTE);

    await Promise.all([one.drain(), two.drain()]);
    expect(runsOf("restart")).toHaveLength(2);
    clockMs = START + 7 * MINUTE;
    await Promise.all([one.drain(), two.drain()]);
    expect(runsOf("restart")).toHaveLength(3);
    expect((await keysOf(schedule.name)).at(-1)).toBe(keyAt(schedule.name, START + 7 * MINUTE));
  });

  it("fire a cron schedule at its wall-clock times, and once after its due time was set back several periods", async () => {
    clockMs = START; // 11:02 in Brussels
    const schedule = defineSchedule({ name: "test-cron", job: tickJob, payload: { label: "cron" }, cron: "*/5 * * * *" });
    await processOn(database, "one", [schedule], true);
    await processOn(second, "two", [schedule], true);
    await waitFor(async () => (await rowOf(schedule.name)) !== undefined);
    expect((await rowOf(schedule.name)).nextRunAt.toISOString()).toBe("2026-01-05T10:05:00.000Z");
    clockMs = Date.parse("2026-01-05T10:05:00Z");
    await waitFor(() => runsOf("cron").length >= 1);
    clockMs = Date.parse("2026-01-05T10:09:59Z");
    await pause(150);
    expect(runsOf("cron")).toHaveLength(1);
    clockMs = Date.parse("2026-01-05T10:10:00Z");
    await waitFor(() => runsOf("cron").length >= 2);
    await stopAll();

    // Stopped; its due time is put an hour back (twelve periods), then both start again.
    await database.db.update(jobSchedules).set({ nextRunAt: new Date("2026-01-05T09:15:00Z") }).where(eq(jobSchedules.name, schedule.name));
    clockMs = Date.parse("2026-01-05T10:12:00Z");
    await processOn(database, "one", [schedule], true);
    await processOn(second, "two", [schedule], true);
    await waitFor(() => runsOf("cron").length >= 3);
    await pause(150);
    expect(runsOf("cron")).toHaveLength(3);
    expect((await rowOf(schedule.name)).nextRunAt.toISOString()).toBe("2026-01-05T10:15:00.000Z");
    clockMs = Date.parse("2026-01-05T10:15:00Z");
    await waitFor(() => runsOf("cron").length >= 4);
    await pause(100);
    expect(runsOf("cron")).toHaveLength(4);
    expect(await keysOf(schedule.name)).toEqual([
      "test-cron@2026-01-05T10:05:00.000Z",
      "test-cron@2026-01-05T10:10:00.000Z",
      "test-cron@2026-01-05T09:15:00.000Z",
      "test-cron@2026-01-05T10:15:00.000Z",
    ]);
  });
});

describe("schedule rows", () => {
  it("keep their next due time across a restart, and compute it again when the cron, interval or zone changed", async () => {
    clockMs = START;
    const name = "test-changes";
    const sync = async (definition: ScheduleDefinition) => {
      const queue = await processOn(database, "one", [definition]);
      await queue.drain();
      await stopAll();
      return rowOf(name);
    };
    const everyMinute = defineSchedule({ name, job: tickJob, payload: { label: "changes" }, everySeconds: 60 });
    expect(await sync(everyMinute)).toMatchObject({ spec: "every 60s", job: "test-tick", nextRunAt: new Date(START + MINUTE) });
    clockMs = START + 10_000;
    expect((await sync(everyMinute)).nextRunAt).toEqual(new Date(START + MINUTE)); // unchanged: kept

    clockMs = START + 20_000;
    const hourly = defineSchedule({ name, job: tickJob, payload: { label: "changes" }, everySeconds: 3600 });
    expect(await sync(hourly)).toMatchObject({ spec: "every 3600s", nextRunAt: new Date(START + 20_000 + 3_600_000) });

    const utc = defineSchedule({ name, job: tickJob, payload: { label: "changes" }, cron: "0 4 * * *", timeZone: "UTC" });
    expect(await sync(utc)).toMatchObject({ spec: "cron 0 4 * * * UTC", nextRunAt: new Date("2026-01-06T04:00:00Z") });
    const newYork = defineSchedule({ name, job: tickJob, payload: { label: "changes" }, cron: "0 4 * * *", timeZone: "America/New_York" });
    expect(await sync(newYork)).toMatchObject({ spec: "cron 0 4 * * * America/New_York", nextRunAt: new Date("2026-01-06T09:00:00Z") });
    const brussels = defineSchedule({ name, job: tickJob, payload: { label: "changes" }, cron: "0 4 * * *" });
    expect(await sync(brussels)).toMatchObject({ spec: "cron 0 4 * * * Europe/Brussels", nextRunAt: new Date("2026-01-06T03:00:00Z") });
    expect(runsOf("changes")).toEqual([]);
  });

  it("leave a schedule no longer in code alone: it does not fire", async () => {
    clockMs = START;
    await database.db.insert(jobSchedules).values({ name: "test-removed", job: tickJob.name, spec: "every 60s", nextRunAt: new Date(START - 3_600_000) });
    const kept = defineSchedule({ name: "test-kept", job: tickJob, payload: { label: "kept" }, everySeconds: 60 });
    const queue = await processOn(database, "one", [kept]);
    await queue.drain();
    expect(await keysOf("test-removed")).toEqual([]);
    expect((await rowOf("test-removed")).nextRunAt).toEqual(new Date(START - 3_600_000));
  });

  it("enqueue a due time at most once: a due time set back to one that fired adds no job, and moves on", async () => {
    clockMs = START;
    const schedule = defineSchedule({ name: "test-key", job: tickJob, payload: { label: "key" }, everySeconds: 60 });
    const queue = await processOn(database, "one", [schedule]);
    await queue.drain();
    clockMs = START + MINUTE;
    await queue.drain();
    expect(runsOf("key")).toHaveLength(1);
    await database.db.update(jobSchedules).set({ nextRunAt: new Date(START + MINUTE) }).where(eq(jobSchedules.name, schedule.name));
    clockMs = START + MINUTE + 1_000;
    await queue.drain();
    expect(runsOf("key")).toHaveLength(1);
    expect(await keysOf(schedule.name)).toEqual([keyAt(schedule.name, START + MINUTE)]);
    expect((await rowOf(schedule.name)).nextRunAt).toEqual(new Date(START + 2 * MINUTE));
  });

  it("refuse a schedule whose job the queue does not run", async () => {
    const stray = defineJob({ name: "test-stray", payload: z.object({}), async handler() {} });
    const schedule = defineSchedule({ name: "test-stray", job: stray, payload: {}, everySeconds: 60 });
    await expect(processOn(database, "one", [schedule])).rejects.toThrow(/not in the registry/);
  });
});

describe("the notification retention schedule", () => {
  it("runs the retention job nightly at 03:15 Brussels time with the configured age", async () => {
    const entity = await createEntity(database.db);
    const user = await createUser(database.db, { entityId: entity.id, role: Role.TECHNICIAN });
    const long = new Date(Date.now() - 40 * 86_400_000);
    const old = await createNotification(database.db, { entityId: entity.id, userIds: [user.id], readAt: long, createdAt: long });
    const list = schedules({ notificationRetentionDays: 30, webhookDeliveryRetentionDays: 30 });
    expect(list.map((s) => [s.name, scheduleSpec(s)])).toContainEqual(["notification-retention", "cron 15 3 * * * Europe/Brussels"]);
    expect(list.map((s) => [s.name, scheduleSpec(s)])).toContainEqual(["webhook-retention", "cron 45 3 * * * Europe/Brussels"]);
    expect(list.map((s) => [s.name, scheduleSpec(s)])).toContainEqual(["service-level-breach-pass", "every 60s"]);
    expect(list.map((s) => [s.name, scheduleSpec(s)])).toContainEqual(["equipment-warranty-pass", "every 3600s"]);

    clockMs = Date.parse("2026-01-05T01:00:00Z"); // 02:00 in Brussels
    const services = { db: database.db, files: { root: "", maxBytes: 0 }, events: { publish() {}, subscribe: () => () => {} }, queue: null, mailer: { send: async () => undefined } };
    // The minutely breach pass and the hourly warranty pass would fire at 02:15 as well: left out, this counts the nightly job.
    const nightly = list.filter((s) => s.name !== "service-level-breach-pass" && s.name !== "equipment-warranty-pass");
    const queue = await startQueue({ database, jobs, schedules: nightly, clock, work: false, services: services as never });
    started.push(queue);
    expect(await queue.drain()).toBe(0);
    expect((await rowOf("notification-retention")).nextRunAt.toISOString()).toBe("2026-01-05T02:15:00.000Z");
    clockMs = Date.parse("2026-01-05T02:15:00Z");
    expect(await queue.drain()).toBe(1);
    const [job] = await database.db.select().from(jobQueue).where(and(eq(jobQueue.name, "notification-retention"), eq(jobQueue.state, "done")));
    expect(job).toMatchObject({ payload: { days: 30 }, key: "notification-retention@2026-01-05T02:15:00.000Z" });
    expect(await database.db.select().from(notificationDetails).where(eq(notificationDetails.id, old.details.id))).toEqual([]);
    expect((await rowOf("notification-retention")).nextRunAt.toISOString()).toBe("2026-01-06T02:15:00.000Z");
    // No chain of its own: nothing else waits in the queue.
    const waiting = await database.db.select().from(jobQueue).where(and(eq(jobQueue.name, "notification-retention"), sql`${jobQueue.state} <> 'done'`));
    expect(waiting).toEqual([]);
  });
});

describe("defineSchedule", () => {
  it("refuses malformed definitions", () => {
    const base = { name: "test-bad", job: tickJob, payload: { label: "x" } };
    expect(() => defineSchedule({ ...base })).toThrow(/either cron or everySeconds/);
    expect(() => defineSchedule({ ...base, cron: "* * * * *", everySeconds: 5 })).toThrow(/either cron or everySeconds/);
    expect(() => defineSchedule({ ...base, everySeconds: 0 })).toThrow(/whole number/);
    expect(() => defineSchedule({ ...base, everySeconds: 1.5 })).toThrow(/whole number/);
    expect(() => defineSchedule({ ...base, cron: "0 25 * * *" })).toThrow(/hour/);
    expect(() => defineSchedule({ ...base, cron: "0 3 * * *", timeZone: "Europe/Atlantis" })).toThrow(/time zone/);
    expect(() => defineSchedule({ ...base, name: "Not Kebab", everySeconds: 5 })).toThrow(/kebab-case/);
    expect(() => defineSchedule({ ...base, payload: { label: 3 } as never, everySeconds: 5 })).toThrow();
  });

  it("counts an interval from the previous due time, skipping the ones already past", () => {
    const every = defineSchedule({ name: "test-every", job: tickJob, payload: { label: "x" }, everySeconds: 60 });
    expect(nextDueTime(every, START)).toBe(START + MINUTE);
    expect(nextDueTime(every, START + 500)).toBe(START + MINUTE + 1_000); // whole seconds
    expect(nextDueTime(every, START + MINUTE, START + MINUTE)).toBe(START + 2 * MINUTE);
    expect(nextDueTime(every, START + 5 * MINUTE + 1, START + MINUTE)).toBe(START + 6 * MINUTE);
  });
});

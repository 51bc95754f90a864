/**
 * Notifications benchmark (issue #14, "Speed and scale"): the unread count for a user with 100,000
 * notifications must stay within 10 ms p95. It opens a fresh database (in-memory PGlite, or the
 * PostgreSQL database of DATABASE_URL, which it migrates), gives one user BENCH_NOTIFICATIONS
 * notifications (default 100,000, 70% read; set-based inserts, the triggers keep the counters), then
 * times BENCH_REQUESTS (default 500) calls after 20 warm-ups of:
 *   - the count call (`countNotifications`: the counter row, what the bell and GET .../count read);
 *   - the same figures counted from the rows (what the count cost before migration 0010), for comparison;
 *   - the first page of the list, and of the unread filter (`listNotifications`, 25 rows);
 * and once: marking all of them read (the verb's statement; the trigger adjusts the counter).
 *
 *   npm run bench:notifications
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/caretaker_notifications_bench npm run bench:notifications
 */
import { personActor } from "../app/core/actor";
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { openDatabase, runMigrations } from "~/db/client.server";
import { Role } from "~/db/enums";
import { countNotifications, listNotifications } from "~/modules/notifications/queries.server";
import { createEntity, createUser } from "~/seed/factories";

const total = Number(process.env.BENCH_NOTIFICATIONS ?? 100_000);
const requests = Number(process.env.BENCH_REQUESTS ?? 500);
const url = process.env.DATABASE_URL;

function percentile(sorted: number[], p: number) {
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

async function time(name: string, fn: () => Promise<unknown>, n = requests) {
  for (let i = 0; i < 20; i++) await fn();
  const runs: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    await fn();
    runs.push(performance.now() - start);
  }
  runs.sort((a, b) => a - b);
  const row = { name, p50: percentile(runs, 50).toFixed(2), p95: percentile(runs, 95).toFixed(2), max: runs[runs.length - 1].toFixed(2) };
  console.log(`${row.name.padEnd(48)} p50 ${row.p50.padStart(8)} ms   p95 ${row.p95.padStart(8)} ms   max ${row.max.padStart(8)} ms`);
  return row;
}

async function main() {
  const database = await openDatabase(url ? { url, poolMax: 2 } : {});
  await runMigrations(database);
  const db = database.db;
  const entity = await createEntity(db);
  const user = await createUser(db, { entityId: entity.id, role: Role.TECHNICIAN });
  const started = performance.now();
  const batch = 20_000;
  for (let done = 0; done < total; done += batch) {
    const n = Math.min(batch, total - done);
    await db.execute(sql`
      with d as (
        insert into notification_details (entity_id, type, subject, message, created_at)
        select ${entity.id}, 0, 'Bench #' || g, '{}'::jsonb, now() - make_interval(secs => ${total} - g - ${done})
        from generate_series(1, ${n}) g
        returning id, created_at
      )
      insert into notifications (entity_id, user_id, details_id, read_at, created_at)
      select ${entity.id}, ${user.id}, d.id, case when d.id % 10 < 7 then d.created_at else null end, d.created_at from d`);
  }
  await db.execute(sql`analyze notifications`);
  await db.execute(sql`analyze notification_details`);
  console.log(`${url ? "PostgreSQL" : "PGlite"}: ${total.toLocaleString("en")} notifications written in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  console.log("counts:", await countNotifications(db, entity.id, user.id));

  const ctx = { db, entityId: entity.id, actor: personActor({ id: user.id, role: Role.TECHNICIAN }), locale: "en", timeZone: "Europe/Brussels" };
  await time("count (counter row, the bell and GET .../count)", () => countNotifications(db, entity.id, user.id));
  await time("count from the rows (before 0010), comparison", () =>
    db.execute(sql`select count(*)::int as total, (count(*) filter (where read_at is null))::int as unread
      from notifications where user_id = ${user.id} and entity_id = ${entity.id}`),
    Math.min(requests, 100),
  );
  await time("list, first page (25)", () => listNotifications(ctx, user.id, {}));
  await time("list, unread only, first page (25)", () => listNotifications(ctx, user.id, { unreadOnly: true }));
  const start = performance.now();
  // What markAllNotificationsRead runs (the verb itself loads the mail templates, which need Vite).
  const result = await db.execute(sql`update notifications set read_at = now() where user_id = ${user.id} and entity_id = ${entity.id} and read_at is null`);
  const marked = Number((result as unknown as { rowCount?: number; affectedRows?: number }).rowCount ?? (result as unknown as { affectedRows?: number }).affectedRows ?? 0);
  console.log(`mark all read: ${marked.toLocaleString("en")} rows in ${(performance.now() - start).toFixed(0)} ms; counts:`, await countNotifications(db, entity.id, user.id));
  await database.close();
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

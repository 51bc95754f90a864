/**
 * Task generation benchmark (decision 050): what generating the tasks of planned maintenance costs. It
 * opens a fresh database (in-memory PGlite, or the PostgreSQL database of DATABASE_URL, which it
 * migrates), writes two entities, each with BENCH_ROOMS (default 2,000) rooms in 20 buildings, one equipment
 * item a room, and BENCH_PLANS (1,000) plans, each on BENCH_PLAN_ROOMS (2) rooms and one equipment item,
 * with a mix of occurrences (daily, every 2 days, weekly, fortnightly, monthly, quarterly, yearly), then
 * times, as the system actor of the entity:
 *   - a year of tasks for every plan of one entity (`extendEntityTasks` with a 365-day horizon): the
 *     target, at most 5 s; then the same pass again, with nothing to create;
 *   - on a second, identical entity, the real 90-day horizon: the first pass, the nightly pass of the
 *     next day (one day more of each plan) and the same night again;
 *   - one plan's regeneration after an edit (`regeneratePlans`, median of BENCH_REPEAT (30) runs).
 * It checks there is no duplicate task, then tops the first entity up to BENCH_READ_TASKS (500,000) tasks
 * and times the task list and the calendar (month and week views; target: 10 ms each, median of BENCH_REPEAT runs).
 *
 *   npm run bench:tasks
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/caretaker_tasks_bench npm run bench:tasks
 */
import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { personActor, systemActor } from "~/core/actor";
import type { ServiceContext } from "~/core/context.server";
import { openDatabase, runMigrations } from "~/db/client.server";
import { Role, TaskStatus, TimeMeasure } from "~/db/enums";
import { addDays } from "~/lib/dates";
import { extendEntityTasks, regeneratePlans } from "~/modules/maintenance/generation.server";
import { TASK_HORIZON_DAYS } from "~/modules/maintenance/recurrence";
import { CALENDAR_ENTRIES_PER_DAY, calendarDays, listTasks, monthGrid, weekDays } from "~/modules/maintenance/task-queries.server";
import { createEntity, createEquipmentType, createFacility, createMaintenanceType, createRoomType, createUser, linkUserTo } from "~/seed/factories";

const url = process.env.DATABASE_URL;
const ROOMS = Number(process.env.BENCH_ROOMS ?? 2000);
const PLANS = Number(process.env.BENCH_PLANS ?? 1000);
const PLAN_ROOMS = Number(process.env.BENCH_PLAN_ROOMS ?? 2);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 30);
const TARGET_MS = 5000;
/** The reads are timed with this many tasks in the entity, against this target (SQL and shaping). */
const READ_TASKS = Number(process.env.BENCH_READ_TASKS ?? 500_000);
const READ_TARGET_MS = 10;
const TODAY = "2027-01-01";

/** The occurrences the plans take in turn: [unit, interval]. */
const MIX: Array<[TimeMeasure, number]> = [
  [TimeMeasure.DAY, 1],
  [TimeMeasure.DAY, 2],
  [TimeMeasure.WEEK, 1],
  [TimeMeasure.WEEK, 1],
  [TimeMeasure.WEEK, 2],
  [TimeMeasure.MONTH, 1],
  [TimeMeasure.MONTH, 1],
  [TimeMeasure.MONTH, 3],
  [TimeMeasure.YEAR, 1],
  [TimeMeasure.WEEK, 1],
];

const rowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? result : ((result as { rows: T[] }).rows ?? []));

async function main() {
  const database = await openDatabase(url ? { url, poolMax: 2 } : {});
  await runMigrations(database);
  const db = database.db;
  /** An entity with its rooms, items and plans; returns the system's context for it. */
  const populate = async (): Promise<ServiceContext> => {
    const entity = await createEntity(db);
    const e = entity.id;
    const ctx: ServiceContext = { db, entityId: e, actor: systemActor("task-generation"), locale: "en", timeZone: "Europe/Brussels" };
    const roomType = await createRoomType(db, { entityId: e });
    const equipmentType = await createEquipmentType(db, { entityId: e });
    const facility = await createFacility(db, { entityId: e });
    const type = await createMaintenanceType(db, { entityId: e });

    const buildingsCount = 20;
    await db.execute(sql`
      with b as (
        insert into buildings (entity_id, facility_id, short_id, name)
        select ${e}, ${facility.id}, 1000 + g, 'Building ' || g from generate_series(1, ${buildingsCount}) g
        returning id, short_id
      ), r as (
        insert into rooms (entity_id, building_id, room_type_id, short_id, name, floor)
        select ${e}, b.id, ${roomType.id}, b.short_id * 10000 + g, 'Room ' || (b.short_id * 10000 + g), '0'
        from b cross join generate_series(1, ${Math.ceil(ROOMS / buildingsCount)}) g
        returning id, short_id
      )
      insert into equipment_items (entity_id, room_id, equipment_type_id, internal_reference)
      select ${e}, r.id, ${equipmentType.id}, 'EQ-' || r.short_id from r`);
    const units = `{${MIX.map((m) => m[0]).join(",")}}`;
    const intervals = `{${MIX.map((m) => m[1]).join(",")}}`;
    // Plan p takes the p-th rooms in turn, and the equipment item of the room after them.
    await db.execute(sql`
      with room_list as (
        select id, row_number() over (order by id) - 1 as n, count(*) over () as total from rooms where entity_id = ${e}
      ), item_list as (
        select i.id, rl.n, rl.total from equipment_items i join room_list rl on rl.id = i.room_id
      ), p as (
        insert into planned_maintenances (entity_id, name, maintenance_type_id, start_date, end_date, occurrence_interval, occurrence_unit, time_of_day)
        select ${e}, 'Plan ' || g, ${type.id}, ${addDays(TODAY, -30)}::date - (g % 28), ${addDays(TODAY, 730)}::date,
          (${intervals}::int[])[1 + g % ${MIX.length}], (${units}::smallint[])[1 + g % ${MIX.length}], '08:00'
        from generate_series(0, ${PLANS - 1}) g
        returning id
      ), numbered as (
        select id, row_number() over (order by id) - 1 as k from p
      ), pr as (
        insert into planned_maintenance_rooms (entity_id, planned_maintenance_id, room_id)
        select ${e}, numbered.id, rl.id from numbered cross join generate_series(0, ${PLAN_ROOMS - 1}) j
        join room_list rl on rl.n = (numbered.k * ${PLAN_ROOMS + 1} + j) % rl.total
      )
      insert into planned_maintenance_equipment_items (entity_id, planned_maintenance_id, equipment_item_id)
      select ${e}, numbered.id, il.id from numbered join item_list il on il.n = (numbered.k * ${PLAN_ROOMS + 1} + ${PLAN_ROOMS}) % il.total`);
    await db.execute(sql`analyze`);
    return ctx;
  };
  const started = performance.now();
  const ctx = await populate();
  const steady = await populate();
  console.log(
    `${url ? "PostgreSQL" : "PGlite"}: two entities of ${ROOMS.toLocaleString("en")} rooms and items and ${PLANS.toLocaleString("en")} plans of ${PLAN_ROOMS} rooms and 1 item, ` +
      `written in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );

  const results: { name: string; ms: number; note?: string }[] = [];
  const once = async <T>(name: string, fn: () => Promise<T>, note?: (r: T) => string): Promise<T> => {
    const start = performance.now();
    const result = await fn();
    results.push({ name, ms: performance.now() - start, note: note?.(result) });
    return result;
  };
  const counted = (r: { plans: number; created: number; removed: number }) =>
    `${r.plans.toLocaleString("en")} plans, ${r.created.toLocaleString("en")} created, ${r.removed.toLocaleString("en")} removed`;

  const year = await once("a year of tasks for every plan (365-day horizon)", () => extendEntityTasks(ctx, { today: TODAY, horizonDays: 365 }), counted);
  await once("the same pass again (nothing to create)", () => extendEntityTasks(ctx, { today: TODAY, horizonDays: 365 }), counted);
  // The life of the other entity with the real horizon: a first pass, then the next night's.
  await once(`first pass (${TASK_HORIZON_DAYS}-day horizon)`, () => extendEntityTasks(steady, { today: TODAY }), counted);
  await once("nightly pass of the next day", () => extendEntityTasks(steady, { today: addDays(TODAY, 1) }), counted);
  await once("the same night again (nothing to do)", () => extendEntityTasks(steady, { today: addDays(TODAY, 1) }), counted);

  // One plan edited (its occurrence halved, then back), regenerated as its verb does.
  const [daily] = rowsOf<{ id: number }>(
    await db.execute(sql`select id from planned_maintenances where entity_id = ${steady.entityId} and occurrence_unit = ${TimeMeasure.DAY} and occurrence_interval = 1 order by id limit 1`),
  );
  const times: number[] = [];
  for (let i = 0; i < REPEAT; i++) {
    await db.execute(sql`update planned_maintenances set occurrence_interval = ${i % 2 === 0 ? 2 : 1} where id = ${daily.id}`);
    const start = performance.now();
    await regeneratePlans(steady, [daily.id], { today: addDays(TODAY, 1) });
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  results.push({ name: "one daily plan edited and regenerated (90-day horizon)", ms: times[Math.floor(times.length / 2)], note: `median of ${REPEAT}` });

  for (const r of results) console.log(`${r.name.padEnd(58)} ${r.ms.toFixed(1).padStart(9)} ms${r.note ? `   (${r.note})` : ""}`);
  const [dupes] = rowsOf<{ n: number }>(
    await db.execute(sql`select count(*)::int as n from (select 1 from tasks
      group by planned_maintenance_id, room_id, equipment_item_id, due_date having count(*) > 1) d`),
  );
  console.log(Number(dupes.n) === 0 ? "duplicates: none" : `duplicates: ${dupes.n}`);

  // Reading at 500,000 tasks: the first entity's year is topped up with done tasks of the past (each
  // plan's rooms, a day at a time backwards), then the task list and the month calendar are timed as an
  // administrator (the whole entity) and as a technician linked to two buildings (their own tasks).
  const e = ctx.entityId;
  const [{ n: before }] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from tasks where entity_id = ${e}`));
  const perDay = PLANS * PLAN_ROOMS;
  const days = Math.max(0, Math.ceil((READ_TASKS - Number(before)) / perDay));
  await db.execute(sql`
    insert into tasks (entity_id, planned_maintenance_id, room_id, due_date, due_time, status, done_at)
    select ${e}, pr.planned_maintenance_id, pr.room_id, ${addDays(TODAY, -60)}::date - d, '08:00', ${TaskStatus.DONE}, now()
    from planned_maintenance_rooms pr cross join generate_series(0, ${days - 1}) d
    where pr.entity_id = ${e}
    on conflict do nothing`);
  await db.execute(sql`analyze tasks`);
  const [{ n: total }] = rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from tasks where entity_id = ${e}`));
  const admin = await createUser(db, { entityId: e, role: Role.ADMINISTRATOR });
  const technician = await createUser(db, { entityId: e, role: Role.TECHNICIAN });
  const linked = rowsOf<{ id: number }>(await db.execute(sql`select id from buildings where entity_id = ${e} order by id limit 2`));
  for (const b of linked) await linkUserTo(db, { entityId: e, userId: technician.id, buildingId: b.id });
  // The technician does a tenth of the plans.
  await db.execute(sql`insert into planned_maintenance_assignees (entity_id, planned_maintenance_id, user_id)
    select ${e}, id, ${technician.id} from planned_maintenances where entity_id = ${e} and id % 10 = 0`);
  const as = (user: { id: number; role: number }): ServiceContext => ({ ...ctx, actor: personActor(user) });
  const everyone = { status: "pending" as const, buildingId: null, plannedMaintenanceId: null, assignee: null };
  const monthDays = monthGrid(TODAY.slice(0, 7));
  const month = { from: monthDays.from, to: monthDays.to };
  const shown = CALENDAR_ENTRIES_PER_DAY;
  const reads: [string, () => Promise<unknown>][] = [
    ["task list, first page (administrator, everyone's pending)", () => listTasks(as(admin), everyone, { page: 1, size: 25 }, { today: TODAY })],
    ["task list, page 40 (administrator)", () => listTasks(as(admin), everyone, { page: 40, size: 25 }, { today: TODAY })],
    ["task list, my tasks (technician)", () => listTasks(as(technician), { ...everyone, assignee: "me" }, { page: 1, size: 25 }, { today: TODAY })],
    ["month calendar (administrator)", () => calendarDays(as(admin), month, {}, shown.month)],
    ["month calendar, my tasks (technician)", () => calendarDays(as(technician), month, { assignee: "me" }, shown.month)],
    ["week calendar (administrator)", () => calendarDays(as(admin), weekDays(TODAY), {}, shown.week)],
  ];
  console.log(`\nreading at ${Number(total).toLocaleString("en")} tasks in the entity (median of ${REPEAT}; target ${READ_TARGET_MS} ms):`);
  let readsOk = true;
  for (const [name, read] of reads) {
    await read();
    const runs: number[] = [];
    for (let i = 0; i < REPEAT; i++) {
      const start = performance.now();
      await read();
      runs.push(performance.now() - start);
    }
    runs.sort((a, b) => a - b);
    const median = runs[Math.floor(runs.length / 2)];
    const p95 = runs[Math.floor(runs.length * 0.95)];
    readsOk &&= median <= READ_TARGET_MS;
    console.log(`${name.padEnd(58)} ${median.toFixed(1).padStart(7)} ms median, ${p95.toFixed(1).padStart(7)} ms p95, ${median <= READ_TARGET_MS ? "pass" : "MISS"}`);
  }
  console.log(`target: the task list and the month calendar within ${READ_TARGET_MS} ms at ${Number(total).toLocaleString("en")} tasks: ${readsOk ? "pass" : "MISS"}`);
  const first = results[0].ms;
  console.log(
    `target: a year of tasks for ${PLANS.toLocaleString("en")} plans (${year.created.toLocaleString("en")} tasks) in at most ${TARGET_MS / 1000} s: ` +
      `${(first / 1000).toFixed(2)} s, ${first <= TARGET_MS ? "pass" : "MISS"}`,
  );
  await database.close();
  if (Number(dupes.n) !== 0) process.exitCode = 1;
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});

import { performance } from "node:perf_hooks";
import { sql } from "drizzle-orm";
import { personActor } from "~/core/actor";
import type { ServiceContext } from "~/core/context.server";
import type { Db } from "~/db/client.server";
import { Role } from "~/db/enums";
import { rowsOf } from "~/lib/list-page.server";
import type { DashboardFilters } from "~/modules/dashboard/filters";
import { createEntity, createRoomType, createUser } from "~/seed/factories";

/**
 * What the dashboard benches share: an entity's tree shaped as the scale seed at `scale` (1: 50 facilities,
 * 1,000 buildings, 50,000 rooms), written set-based as the scale seed writes it, with an administrator and a
 * manager linked to every facility; and the timing of one dashboard section for the two of them.
 */
export function treeSizes(scale: number) {
  const facilities = Math.max(1, Math.round(50 * scale));
  const buildings = Math.max(facilities, Math.round(1_000 * scale));
  return { facilities, buildings, rooms: Math.max(buildings, Math.round(50_000 * scale)) };
}

/** A fresh entity with its tree; `bench_rooms` (id, n) numbers its rooms from 0 for the caller's inserts. */
export async function seedTree(db: Db, scale: number, entityValues: Parameters<typeof createEntity>[1] = {}) {
  const sizes = treeSizes(scale);
  const entity = await createEntity(db, entityValues);
  const e = entity.id;
  const admin = await createUser(db, { entityId: e, role: Role.ADMINISTRATOR });
  const manager = await createUser(db, { entityId: e, role: Role.FACILITY_MANAGER });
  await db.execute(sql`insert into facilities (entity_id, short_id, name) select ${e}, g, 'Facility ' || g from generate_series(1, ${sizes.facilities}::int) g`);
  await db.execute(sql`insert into buildings (entity_id, short_id, facility_id, name)
    select ${e}, g, f.id, 'Building ' || g from generate_series(1, ${sizes.buildings}::int) g
    join (select id, row_number() over (order by id) - 1 as n from facilities where entity_id = ${e}) f on f.n = g % ${sizes.facilities}`);
  const roomType = await createRoomType(db, { entityId: e });
  await db.execute(sql`insert into rooms (entity_id, building_id, room_type_id, short_id, name, floor)
    select ${e}, b.id, ${roomType.id}::int, g, 'Room ' || g, '0' from generate_series(1, ${sizes.rooms}::int) g
    join (select id, row_number() over (order by id) - 1 as n from buildings where entity_id = ${e}) b on b.n = g % ${sizes.buildings}`);
  await db.execute(sql`insert into user_linked_objects (entity_id, user_id, facility_id) select ${e}, ${manager.id}::int, id from facilities where entity_id = ${e}`);
  await db.execute(sql`create temporary table bench_rooms as select id, row_number() over (order by id) - 1 as n from rooms where entity_id = ${e}`);
  return { entity, admin, manager, sizes };
}

const percentile = (values: number[], p: number) => [...values].sort((a, b) => a - b)[Math.min(values.length - 1, Math.ceil(p * values.length) - 1)];

/**
 * Times `section` for the manager of every facility and the administrator (the default six months, then one
 * facility): p50 and p95 of `repeat` calls one at a time after 3 warm-up calls, printed as a table. Returns
 * the manager's p95.
 */
export async function timeSection(
  db: Db,
  people: { entity: { id: number; timeZone: string }; admin: { id: number; role: number }; manager: { id: number; role: number } },
  section: (ctx: ServiceContext, filters: DashboardFilters) => Promise<unknown>,
  repeat: number,
): Promise<number> {
  const e = people.entity.id;
  const ctxOf = (user: { id: number; role: number }): ServiceContext => ({ db, entityId: e, actor: personActor(user), locale: "en", timeZone: people.entity.timeZone });
  const filters: DashboardFilters = { facilityId: null, buildingId: null, incidentTypeId: null, from: null, to: null };
  const [facility] = rowsOf<{ id: number }>(await db.execute(sql`select id from facilities where entity_id = ${e} order by id limit 1`));
  const cases: [string, ServiceContext, DashboardFilters][] = [
    ["manager of every facility, last 6 months", ctxOf(people.manager), filters],
    ["administrator, last 6 months", ctxOf(people.admin), filters],
    ["administrator, one facility", ctxOf(people.admin), { ...filters, facilityId: facility?.id ?? null }],
  ];
  console.log("| case | p50 | p95 |\n|---|---:|---:|");
  let managerP95 = Infinity;
  for (const [name, ctx, f] of cases) {
    for (let i = 0; i < 3; i++) await section(ctx, f);
    const times: number[] = [];
    for (let i = 0; i < repeat; i++) {
      const t0 = performance.now();
      await section(ctx, f);
      times.push(performance.now() - t0);
    }
    if (name.startsWith("manager")) managerP95 = percentile(times, 0.95);
    console.log(`| ${name} | ${percentile(times, 0.5).toFixed(1)} ms | ${percentile(times, 0.95).toFixed(1)} ms |`);
  }
  return managerP95;
}

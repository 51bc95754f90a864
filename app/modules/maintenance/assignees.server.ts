import { sql } from "drizzle-orm";
import type { ServiceContext } from "~/core/context.server";
import { TaskStatus } from "~/db/enums";
import { rowsOf } from "~/lib/list-page.server";

/**
 * The maintenance area's part of archiving a user (SPEC.md section 4), inside the caller's unit of
 * work: the user's pending tasks go to `toUserId`, or become unassigned (null); in the assignment lists
 * of planned maintenance and maintenance types, `toUserId` takes their place (once), or the place is
 * removed. Returns how many pending tasks and planned maintenances moved.
 */
export async function reassignUser(
  ctx: ServiceContext,
  fromUserId: number,
  toUserId: number | null,
): Promise<{ tasksReassigned: number; plannedMaintenancesReassigned: number }> {
  const e = ctx.entityId;
  const tasks = await ctx.db.execute(sql`
    with moved as (
      update tasks set assignee_id = ${toUserId}::int, updated_at = now()
      where entity_id = ${e} and assignee_id = ${fromUserId} and status = ${TaskStatus.PENDING}
      returning id
    )
    select count(*)::int as n from moved`);
  const planned = await ctx.db.execute(sql`
    with gone as (
      delete from planned_maintenance_assignees where entity_id = ${e} and user_id = ${fromUserId}
      returning planned_maintenance_id
    ), added as (
      insert into planned_maintenance_assignees (entity_id, planned_maintenance_id, user_id)
      select ${e}, g.planned_maintenance_id, ${toUserId}::int from gone g
      where ${toUserId}::int is not null
      on conflict do nothing
    )
    select count(*)::int as n from gone`);
  await ctx.db.execute(sql`
    with gone as (
      delete from maintenance_type_assignees where entity_id = ${e} and user_id = ${fromUserId}
      returning maintenance_type_id
    )
    insert into maintenance_type_assignees (entity_id, maintenance_type_id, user_id)
    select ${e}, g.maintenance_type_id, ${toUserId}::int from gone g
    where ${toUserId}::int is not null
    on conflict do nothing`);
  const count = (result: unknown) => Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
  return { tasksReassigned: count(tasks), plannedMaintenancesReassigned: count(planned) };
}

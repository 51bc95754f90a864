import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import { type ContextServices, entitySystemContext, type ServiceContext } from "~/core/context.server";
import { defineJob } from "~/core/jobs.server";
import { defineSchedule } from "~/core/schedules.server";
import { withTx } from "~/core/unit-of-work.server";
import { entities, equipmentItems } from "~/db/schema";
import { now } from "~/lib/clock.server";
import { rowsOf } from "~/lib/list-page.server";
import { logger } from "~/lib/logger.server";
import { equipmentWarrantyEnding } from "./changes.server";

/**
 * The warranty pass (issue 63): every hour, the active items (in active rooms) whose warranty ends
 * from today to today + the entity's `warranty_reminder_days` (today in the entity's time zone) get a
 * row of `equipment_warranty_reminders` and a change event (`equipmentItem.warranty-ending`) that the
 * "warranty ending" notification kind follows (./notifications.server.ts). The row is unique per item
 * and warranty end date: a reminder goes out once, even when two processes run the pass at once (the
 * second's insert waits for the first's and then does nothing); a new warranty date reminds anew. An
 * end date already past when first seen reminds nobody.
 */
export const WARRANTY_PASS_ACTOR = "equipment-warranty";

/** The entity's items due for a reminder at `at`, recorded and announced in one transaction. */
async function passEntity(ctx: ServiceContext, at: Date): Promise<number> {
  return withTx(ctx, async (tx, effects) => {
    const inserted = rowsOf<{ id: number }>(
      await tx.db.execute(sql`
        insert into equipment_warranty_reminders (entity_id, equipment_item_id, warranty_ends_on, created_at)
        select e.entity_id, e.id, e.warranty_ends_on, ${at.toISOString()}::timestamptz
        from equipment_items e
        join rooms r on r.id = e.room_id and r.archived_at is null
        join entities en on en.id = e.entity_id
        where e.entity_id = ${ctx.entityId} and e.archived_at is null and e.warranty_ends_on is not null
          and e.warranty_ends_on >= (${at.toISOString()}::timestamptz at time zone en.time_zone)::date
          and e.warranty_ends_on <= (${at.toISOString()}::timestamptz at time zone en.time_zone)::date + en.warranty_reminder_days
        order by e.id
        on conflict on constraint equipment_warranty_reminders_once_key do nothing
        returning id`),
    );
    if (inserted.length === 0) return 0;
    await effects.emitEach(
      equipmentWarrantyEnding,
      sql`select w.equipment_item_id as subject_id,
          jsonb_build_object('equipmentItemId', w.equipment_item_id, 'warrantyEndsOn', to_char(w.warranty_ends_on, 'YYYY-MM-DD')) as payload
        from equipment_warranty_reminders w
        where w.entity_id = ${ctx.entityId} and w.id = any(${`{${inserted.map((r) => r.id).join(",")}}`}::int[])
        order by w.id`,
    );
    return inserted.length;
  });
}

/** The pass over every entity with an item whose warranty end is near at `at`. Returns the reminders raised. */
export async function runWarrantyPass(services: ContextServices, at: Date = new Date(now())): Promise<number> {
  // tenant-scope: scoped by nothing on purpose: it only finds which entities have items with a warranty end; each pass is scoped to its entity
  const due = await services.db
    .selectDistinct({ entityId: equipmentItems.entityId })
    .from(equipmentItems)
    .innerJoin(entities, eq(entities.id, equipmentItems.entityId))
    .where(and(isNull(equipmentItems.archivedAt), sql`${equipmentItems.warrantyEndsOn} between ${at.toISOString()}::timestamptz::date - 1 and ${at.toISOString()}::timestamptz::date + ${entities.warrantyReminderDays} + 1`))
    .orderBy(asc(equipmentItems.entityId));
  let raised = 0;
  for (const { entityId } of due) {
    raised += await passEntity(await entitySystemContext(services, entityId, WARRANTY_PASS_ACTOR), at);
  }
  return raised;
}

export const warrantyPassJob = defineJob({
  name: "equipment-warranty-pass",
  payload: z.object({}),
  retryLimit: 1,
  async handler(_payload, job) {
    const raised = await runWarrantyPass(job.services);
    if (raised) logger().info({ raised }, "warranty reminders raised");
  },
});

/** Every hour: a reminder comes within the hour of the day it is due in the entity's time zone. */
export const warrantyPassSchedule = defineSchedule({
  name: "equipment-warranty-pass",
  job: warrantyPassJob,
  payload: {},
  everySeconds: 3600,
});

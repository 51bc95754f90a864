import type { ServiceContext } from "~/core/context.server";

/**
 * The tasks a planned maintenance generates (SPEC.md section 3), inside the caller's unit of work.
 *
 * CONTRACT for the verbs of the maintenance area; the implementation lands with the generation work
 * (recurrence rules in the entity's time zone, a rolling horizon, a nightly schedule). Until then these
 * create and remove nothing.
 */

/**
 * Brings the plan's tasks in line with the plan from today (in the entity's time zone) to the horizon:
 * creates the missing ones, removes future pending tasks the plan no longer yields (after an edit),
 * never touches done tasks. Idempotent.
 */
export async function regeneratePlanTasks(
  _ctx: ServiceContext,
  _plannedMaintenanceId: number,
): Promise<{ created: number; removed: number }> {
  return { created: 0, removed: 0 };
}

/** Archiving a plan: removes its pending tasks from today on; done tasks stay. */
export async function removeFuturePendingTasks(_ctx: ServiceContext, _plannedMaintenanceId: number): Promise<number> {
  return 0;
}

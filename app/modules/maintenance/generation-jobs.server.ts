import { asc, isNull } from "drizzle-orm";
import { z } from "zod";
import { type ContextServices, entitySystemContext } from "~/core/context.server";
import { defineJob } from "~/core/jobs.server";
import { defineSchedule } from "~/core/schedules.server";
import { entities } from "~/db/schema";
import { logger } from "~/lib/logger.server";
import { extendEntityTasks, type GenerationOptions } from "./generation.server";

/** The name the system acts under when it generates tasks (events, logs). */
export const TASK_GENERATION_ACTOR = "task-generation";

/**
 * Every active entity's plans extended to the horizon, one entity after the other, each as the `system`
 * in its own time zone (its "today"). An entity that fails does not stop the others; the job then fails
 * so the queue retries it (the pass is idempotent).
 */
export async function extendAllEntities(services: ContextServices, options: GenerationOptions = {}): Promise<{ entities: number; created: number; removed: number }> {
  const rows = await services.db.select({ id: entities.id }).from(entities).where(isNull(entities.archivedAt)).orderBy(asc(entities.id));
  const log = logger();
  let created = 0;
  let removed = 0;
  const failed: number[] = [];
  for (const { id } of rows) {
    try {
      const ctx = await entitySystemContext(services, id, TASK_GENERATION_ACTOR);
      const result = await extendEntityTasks(ctx, options);
      created += result.created;
      removed += result.removed;
    } catch (err) {
      failed.push(id);
      log.error({ err, entityId: id }, "extending the planned maintenance tasks failed");
    }
  }
  if (failed.length) throw new Error(`task generation failed for entities ${failed.join(", ")}`);
  return { entities: rows.length, created, removed };
}

export const taskGenerationJob = defineJob({
  name: "task-generation",
  payload: z.object({}),
  retryLimit: 3,
  async handler(_payload, job) {
    const result = await extendAllEntities(job.services);
    logger().info(result, "planned maintenance tasks extended to the horizon");
  },
});

/**
 * Every night at 03:40 Brussels time (decision 050): outside the hour a daylight-saving change skips or
 * repeats, after the notification retention pass.
 */
export const taskGenerationSchedule = defineSchedule({ name: "task-generation", job: taskGenerationJob, payload: {}, cron: "40 3 * * *" });

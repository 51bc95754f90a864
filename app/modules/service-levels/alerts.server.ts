import { and, asc, eq, lte, sql } from "drizzle-orm";
import { z } from "zod";
import { type ContextServices, entitySystemContext, type ServiceContext } from "~/core/context.server";
import { defineJob } from "~/core/jobs.server";
import { defineSchedule } from "~/core/schedules.server";
import { withTx } from "~/core/unit-of-work.server";
import { incidents, serviceLevelAlerts, SERVICE_LEVEL_SIDES } from "~/db/schema";
import { now } from "~/lib/clock.server";
import { logger } from "~/lib/logger.server";
import { serviceLevelAlerted } from "./changes.server";

/**
 * The breach pass (issue 62, decision 064 "Alerts"): every minute, the incidents whose next alert
 * instant (`next_warn_at`, kept by ./clocks.server.ts) has come get their alerts raised:
 *
 * - per side whose clock runs: "breach" once its due instant has passed, otherwise "warning" once its
 *   warning instant has (a breach found first makes its warning pointless: it is not raised);
 * - each alert is a row of `service_level_alerts`, unique per incident, side, stage and target, and a
 *   change event (`incident.service-level-alert`) that the notification kinds and webhooks follow;
 * - an alert whose instant is older than STALE_MINUTES (no worker ran for a day, or a clock rewritten
 *   far in the past) is recorded without telling anyone: a flood of old news helps nobody;
 * - `next_warn_at` then moves on to the next instant still to come, or null.
 *
 * Each entity's incidents are taken in batches in a transaction of their own, locked with
 * `for update skip locked`, so any number of processes share the pass; the unique key makes an alert
 * go out once even when a clock's rewrite brings an instant back.
 */
export const BREACH_PASS_ACTOR = "service-levels";
export const STALE_MINUTES = 24 * 60;
const BATCH = 500;

type Side = (typeof SERVICE_LEVEL_SIDES)[number];

interface DueRow {
  id: number;
  responseTargetMinutes: number | null;
  responseDueAt: Date | null;
  responseWarnAt: Date | null;
  resolutionTargetMinutes: number | null;
  resolutionDueAt: Date | null;
  resolutionWarnAt: Date | null;
}

interface Alert {
  incidentId: number;
  side: Side;
  stage: "warning" | "breach";
  targetMinutes: number;
  dueAt: Date;
  notified: boolean;
}

/** The alerts due at `at` for one incident (at most one per side). */
export function alertsDue(row: DueRow, at: Date): Alert[] {
  const stale = at.getTime() - STALE_MINUTES * 60_000;
  const out: Alert[] = [];
  for (const side of SERVICE_LEVEL_SIDES) {
    const target = side === "response" ? row.responseTargetMinutes : row.resolutionTargetMinutes;
    const dueAt = side === "response" ? row.responseDueAt : row.resolutionDueAt;
    const warnAt = side === "response" ? row.responseWarnAt : row.resolutionWarnAt;
    if (target === null || dueAt === null) continue;
    if (dueAt <= at)
      out.push({
        incidentId: row.id,
        side,
        stage: "breach",
        targetMinutes: target,
        dueAt,
        notified: dueAt.getTime() >= stale,
      });
    else if (warnAt !== null && warnAt <= at)
      out.push({
        incidentId: row.id,
        side,
        stage: "warning",
        targetMinutes: target,
        dueAt,
        notified: warnAt.getTime() >= stale,
      });
  }
  return out;
}

/** The earliest of a column's instants still to come after `at`, as SQL (null when none is). */
const after = (at: Date) => {
  const t = sql`${at.toISOString()}::timestamptz`;
  const later = (column: typeof incidents.responseDueAt) => sql`case when ${column} > ${t} then ${column} end`;
  return sql`least(${later(incidents.responseWarnAt)}, ${later(incidents.responseDueAt)}, ${later(incidents.resolutionWarnAt)}, ${later(
    incidents.resolutionDueAt
  )})`;
};

/** One batch of the entity's due incidents: their alerts raised and their next instants set. Returns how many incidents it took. */
async function passBatch(ctx: ServiceContext, at: Date): Promise<{ incidents: number; raised: number; notified: number }> {
  return withTx(ctx, async (tx, effects) => {
    const rows = await tx.db
      .select({
        id: incidents.id,
        responseTargetMinutes: incidents.responseTargetMinutes,
        responseDueAt: incidents.responseDueAt,
        responseWarnAt: incidents.responseWarnAt,
        resolutionTargetMinutes: incidents.resolutionTargetMinutes,
        resolutionDueAt: incidents.resolutionDueAt,
        resolutionWarnAt: incidents.resolutionWarnAt,
      })
      .from(incidents)
      .where(and(eq(incidents.entityId, ctx.entityId), lte(incidents.nextWarnAt, at)))
      .orderBy(asc(incidents.nextWarnAt), asc(incidents.id))
      .limit(BATCH)
      .for("update", { skipLocked: true });
    if (rows.length === 0) return { incidents: 0, raised: 0, notified: 0 };
    const due = rows.flatMap((row) => alertsDue(row, at));
    const raised = due.length
      ? await tx.db
          .insert(serviceLevelAlerts)
          .values(due.map((a) => ({ ...a, entityId: ctx.entityId, createdAt: at })))
          .onConflictDoNothing()
          .returning()
      : [];
    // The change events of the alerts that tell someone, in one statement.
    const told = raised.filter((a) => a.notified).map((a) => a.id);
    if (told.length) {
      await effects.emitEach(
        serviceLevelAlerted,
        sql`select a.incident_id as subject_id,
            jsonb_build_object('incidentId', a.incident_id, 'side', a.side, 'stage', a.stage, 'targetMinutes', a.target_minutes,
              'dueAt', to_char(a.due_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) as payload
          from service_level_alerts a
          where a.entity_id = ${ctx.entityId} and a.id = any(${`{${told.join(",")}}`}::int[])
          order by a.id`
      );
    }
    const notified = told.length;
    const ids = `{${rows.map((r) => r.id).join(",")}}`;
    await tx.db
      .update(incidents)
      .set({ nextWarnAt: after(at) })
      .where(and(eq(incidents.entityId, ctx.entityId), sql`${incidents.id} = any(${ids}::int[])`));
    return { incidents: rows.length, raised: raised.length, notified };
  });
}

/** The pass over every entity with an alert instant come at `at`. */
export async function runBreachPass(services: ContextServices, at: Date = new Date(now())): Promise<{ incidents: number; raised: number; notified: number }> {
  // tenant-scope: scoped by nothing on purpose: it only finds which entities have work; each batch is scoped to its entity
  const due = await services.db
    .selectDistinct({ entityId: incidents.entityId })
    .from(incidents)
    .where(lte(incidents.nextWarnAt, at))
    .orderBy(asc(incidents.entityId));
  const total = { incidents: 0, raised: 0, notified: 0 };
  for (const { entityId } of due) {
    const ctx = await entitySystemContext(services, entityId, BREACH_PASS_ACTOR);
    for (;;) {
      const batch = await passBatch(ctx, at);
      total.incidents += batch.incidents;
      total.raised += batch.raised;
      total.notified += batch.notified;
      if (batch.incidents < BATCH) break;
    }
  }
  return total;
}

export const breachPassJob = defineJob({
  name: "service-level-breach-pass",
  payload: z.object({}),
  retryLimit: 1,
  async handler(_payload, job) {
    const result = await runBreachPass(job.services);
    if (result.raised) logger().info(result, "service-level alerts raised");
  },
});

/** Every minute: a warning or a breach is told within a minute of its instant. */
export const breachPassSchedule = defineSchedule({
  name: "service-level-breach-pass",
  job: breachPassJob,
  payload: {},
  everySeconds: 60,
});

import { and, eq, isNotNull, or, type SQL, sql } from "drizzle-orm";
import { assertCan, can } from "~/core/actor";
import type { ServiceContext } from "~/core/context.server";
import { buildings, facilities, incidents, rooms, serviceLevelTargets } from "~/db/schema";
import { now } from "~/lib/clock.server";
import { dayIn } from "~/lib/dates";
import { incidentReach } from "~/modules/facilities/policy.server";
import { type DashboardFilters, dashboardPeriod } from "./filters";
import { checkFilters, periodIncidents } from "./queries.server";

/**
 * The dashboard's "Service levels" (issue 62): per month (the entity's time zone) and per facility, for the
 * incidents the rest of the dashboard counts (created in the period, not archived, within the viewer's
 * reach, of the filters' type and place), each target (response, resolution) apart:
 * - **counted**: the incidents that have the target and an outcome: met in time or late (`*_met`), or
 *   still running and already past their due instant (a breach that can no longer be met in time: missed).
 *   Incidents whose clock is stopped without an outcome (Rejected, or a working clock without opening
 *   hours) and open ones not yet due have no outcome and are not counted;
 * - **met**: those met in time, and their share of the counted ones (null when none is counted);
 * - the **median and 90th percentile** of the clock minutes counted until the target was met (in time or
 *   late: `*_elapsed_minutes`, in the target's own clock, working or calendar), interpolated
 *   (`percentile_cont`), to one decimal. Open incidents past due have no final time and are left out.
 * One query grouped by (month, facility), (month) and (): each month's facilities, the month over every
 * facility, and the whole period. Incidents without a room have no facility (facility null).
 */

export interface ServiceLevelSide {
  counted: number;
  met: number;
  /** met / counted, 0 to 1; null when none is counted. */
  share: number | null;
  medianMinutes: number | null;
  p90Minutes: number | null;
}

export interface ServiceLevelRow {
  /** `facility`: one facility of a month; `month`: the month over every facility; `period`: the whole period. */
  scope: "facility" | "month" | "period";
  /** YYYY-MM; null for the period. */
  month: string | null;
  /** Null for incidents without a room, and for the month and period rows. */
  facilityId: number | null;
  facilityName: string | null;
  response: ServiceLevelSide;
  resolution: ServiceLevelSide;
}

export interface ServiceLevelFigures {
  /** Whether the entity has any response or resolution target set (else the screen says so). */
  hasTargets: boolean;
  /** Whether the viewer may set them (the empty state's link). */
  canSetTargets: boolean;
  /** The months' facilities and totals in order (month, its total first, facilities by name), then the period. */
  rows: ServiceLevelRow[];
}

interface RawRow {
  month: string | null;
  facilityId: number | null;
  facilityName: string | null;
  byFacility: number;
  rCounted: number;
  rMet: number;
  rShare: number | null;
  rMedian: number | null;
  rP90: number | null;
  sCounted: number;
  sMet: number;
  sShare: number | null;
  sMedian: number | null;
  sP90: number | null;
}

const float = (expression: SQL) => sql<number | null>`${expression}`.mapWith((v) => (v === null ? null : Number(v)));

/** One target's aggregates over the inner rows' `<p>_outcome` (true met, false missed, null none) and `<p>_minutes`. */
function aggregates(p: "r" | "s") {
  const outcome = sql.raw(`x.${p}_outcome`);
  const minutes = sql.raw(`x.${p}_minutes`);
  return {
    counted: sql<number>`count(${outcome})::int`.mapWith(Number),
    met: sql<number>`(count(*) filter (where ${outcome}))::int`.mapWith(Number),
    share: float(sql`(count(*) filter (where ${outcome}))::float8 / nullif(count(${outcome}), 0)`),
    median: float(sql`round((percentile_cont(0.5) within group (order by ${minutes}))::numeric, 1)::float8`),
    p90: float(sql`round((percentile_cont(0.9) within group (order by ${minutes}))::numeric, 1)::float8`),
  };
}

/** The figures of the viewer's dashboard section. Facility managers and administrators only. */
export async function getServiceLevelFigures(ctx: ServiceContext, filters: DashboardFilters): Promise<ServiceLevelFigures> {
  assertCan(ctx.actor, "read", "dashboard");
  await checkFilters(ctx, filters);
  const tz = ctx.timeZone;
  const at = new Date(now());
  const period = dashboardPeriod(filters, dayIn(at, tz));
  // A side's outcome: met (in time or not) once its clock stopped on the target; missed while it still
  // runs past its due instant; none otherwise (no target, stopped unmet, or not yet due).
  const outcome = (target: unknown, met: unknown, due: unknown) =>
    sql<boolean | null>`case when ${target} is null then null when ${met} is not null then ${met} when ${due} <= ${at.toISOString()}::timestamptz then false end`;
  const minutes = (target: unknown, met: unknown, elapsed: unknown) => sql<number | null>`case when ${target} is not null and ${met} is not null then ${elapsed} end`;
  const i = incidents;
  // tenant-scope: scoped by periodIncidents, whose first condition is the entity's
  const inner = ctx.db
    .select({
      month: sql<string>`to_char(date_trunc('month', ${i.createdAt} at time zone ${tz}), 'YYYY-MM')`.as("month"),
      facilityId: sql<number | null>`${facilities.id}`.as("facility_id"),
      facilityName: sql<string | null>`${facilities.name}`.as("facility_name"),
      rOutcome: outcome(i.responseTargetMinutes, i.responseMet, i.responseDueAt).as("r_outcome"),
      rMinutes: minutes(i.responseTargetMinutes, i.responseMet, i.responseElapsedMinutes).as("r_minutes"),
      sOutcome: outcome(i.resolutionTargetMinutes, i.resolutionMet, i.resolutionDueAt).as("s_outcome"),
      sMinutes: minutes(i.resolutionTargetMinutes, i.resolutionMet, i.resolutionElapsedMinutes).as("s_minutes"),
    })
    .from(i)
    .leftJoin(rooms, and(eq(rooms.id, i.roomId), eq(rooms.entityId, ctx.entityId)))
    .leftJoin(buildings, and(eq(buildings.id, rooms.buildingId), eq(buildings.entityId, ctx.entityId)))
    .leftJoin(facilities, and(eq(facilities.id, buildings.facilityId), eq(facilities.entityId, ctx.entityId)))
    .where(and(...periodIncidents(ctx, filters, period, incidentReach(ctx)), or(isNotNull(i.responseTargetMinutes), isNotNull(i.resolutionTargetMinutes))))
    .as("x");
  const r = aggregates("r");
  const s = aggregates("s");
  const [rows, targets] = await Promise.all([
    ctx.db
      .select({
        month: sql<string | null>`x.month`,
        facilityId: sql<number | null>`x.facility_id`.mapWith((v) => (v === null ? null : Number(v))),
        facilityName: sql<string | null>`x.facility_name`,
        // 0: a facility's row (of a month); 1: a month or the period over every facility.
        byFacility: sql<number>`grouping(x.facility_id)`.mapWith(Number),
        rCounted: r.counted,
        rMet: r.met,
        rShare: r.share,
        rMedian: r.median,
        rP90: r.p90,
        sCounted: s.counted,
        sMet: s.met,
        sShare: s.share,
        sMedian: s.median,
        sP90: s.p90,
      })
      .from(inner)
      .groupBy(sql`grouping sets ((x.month, x.facility_id, x.facility_name), (x.month), ())`)
      .orderBy(sql`x.month nulls last, grouping(x.facility_id) desc, x.facility_name nulls last, x.facility_id`),
    ctx.db
      .select({ id: serviceLevelTargets.id })
      .from(serviceLevelTargets)
      .where(and(eq(serviceLevelTargets.entityId, ctx.entityId), or(isNotNull(serviceLevelTargets.responseMinutes), isNotNull(serviceLevelTargets.resolutionMinutes))))
      .limit(1),
  ]);
  const side = (row: RawRow, p: "r" | "s"): ServiceLevelSide => ({
    counted: row[`${p}Counted`],
    met: row[`${p}Met`],
    share: row[`${p}Share`],
    medianMinutes: row[`${p}Median`],
    p90Minutes: row[`${p}P90`],
  });
  return {
    hasTargets: targets.length > 0,
    canSetTargets: can(ctx.actor, "manage", "serviceLevel"),
    // Without incidents the grouping still answers the empty period's row: none then.
    rows: rows.some((row) => row.month !== null)
      ? rows.map((row) => ({
          scope: row.month === null ? "period" : row.byFacility === 1 ? "month" : "facility",
          month: row.month,
          facilityId: row.byFacility === 1 ? null : row.facilityId,
          facilityName: row.byFacility === 1 ? null : row.facilityName,
          response: side(row, "r"),
          resolution: side(row, "s"),
        }))
      : [],
  };
}

import { and, eq, isNotNull, or, sql } from "drizzle-orm";
import type { ServiceContext } from "~/core/context.server";
import { type IncidentPriority, IncidentStatus } from "~/db/enums";
import { entities, type Incident, incidents, serviceLevelTargets } from "~/db/schema";
import type { ClockKind, WorkingCalendar } from "./calendar";
import { type Target, targetsFor, warningLead, workingCalendar } from "./queries.server";
import { addClockTime, clockMinutesBetween, hasOpeningHours } from "./working-time";

/**
 * An incident's service-level clocks, stored on its row (issue 62, decision 064 "The incident's clocks").
 * The incident verbs call these inside their unit of work, after writing the row:
 * - `startIncidentClocks` when an incident is reported (created);
 * - `followIncidentClocks` after any change of status, assignee, priority or type;
 * - `stopIncidentClocks` after a set-based rejection (archiving a place).
 *
 * Per target (response: until assigned or In Progress, whichever first; resolution: until Done):
 * - the target is fixed when the incident is reported, and re-fixed when its priority or type changes
 *   (a target already met keeps its outcome); later changes of the settings do not move it;
 * - its clock runs while the incident is Pending or In Progress, and stops otherwise (Rejected, and the
 *   resolution's at Done); a clock that runs again continues with what it had counted;
 * - the due instant is stored while it runs, so lists sort and filter on a column, never on arithmetic.
 * An entity without targets leaves every column null, and nothing is loaded for it but the targets.
 */

type Side = "response" | "resolution";

/** One target's stored clock (the incidents columns of one side). */
export interface StoredClock {
  targetMinutes: number | null;
  clock: ClockKind | null;
  dueAt: Date | null;
  elapsedMinutes: number | null;
  metAt: Date | null;
  met: boolean | null;
  warnAt: Date | null;
}

const NONE: StoredClock = { targetMinutes: null, clock: null, dueAt: null, elapsedMinutes: null, metAt: null, met: null, warnAt: null };

/** What the arithmetic needs: the entity's calendar (in its own time zone) and warning lead. */
interface Settings {
  cal: WorkingCalendar;
  lead: number | null;
}

type ClockRow = Pick<
  Incident,
  | "id"
  | "status"
  | "assigneeId"
  | "priority"
  | "incidentTypeId"
  | "createdAt"
  | "responseTargetMinutes"
  | "responseClock"
  | "responseDueAt"
  | "responseElapsedMinutes"
  | "respondedAt"
  | "responseMet"
  | "responseWarnAt"
  | "resolutionTargetMinutes"
  | "resolutionClock"
  | "resolutionDueAt"
  | "resolutionElapsedMinutes"
  | "resolvedAt"
  | "resolutionMet"
  | "resolutionWarnAt"
>;

function read(row: ClockRow, side: Side): StoredClock {
  return side === "response"
    ? {
        targetMinutes: row.responseTargetMinutes,
        clock: row.responseClock,
        dueAt: row.responseDueAt,
        elapsedMinutes: row.responseElapsedMinutes,
        metAt: row.respondedAt,
        met: row.responseMet,
        warnAt: row.responseWarnAt,
      }
    : {
        targetMinutes: row.resolutionTargetMinutes,
        clock: row.resolutionClock,
        dueAt: row.resolutionDueAt,
        elapsedMinutes: row.resolutionElapsedMinutes,
        metAt: row.resolvedAt,
        met: row.resolutionMet,
        warnAt: row.resolutionWarnAt,
      };
}

const earliest = (...dates: (Date | null)[]): Date | null =>
  dates.reduce<Date | null>((min, d) => (d && (!min || d < min) ? d : min), null);

function columns(response: StoredClock, resolution: StoredClock): Partial<typeof incidents.$inferInsert> {
  return {
    responseTargetMinutes: response.targetMinutes,
    responseClock: response.clock,
    responseDueAt: response.dueAt,
    responseElapsedMinutes: response.elapsedMinutes,
    respondedAt: response.metAt,
    responseMet: response.met,
    responseWarnAt: response.warnAt,
    resolutionTargetMinutes: resolution.targetMinutes,
    resolutionClock: resolution.clock,
    resolutionDueAt: resolution.dueAt,
    resolutionElapsedMinutes: resolution.elapsedMinutes,
    resolvedAt: resolution.metAt,
    resolutionMet: resolution.met,
    resolutionWarnAt: resolution.warnAt,
    nextDueAt: earliest(response.dueAt, resolution.dueAt),
    // The breach pass (./alerts.server.ts) looks again at the earliest warning or due instant; the
    // alerts it raised before are kept in service_level_alerts, so looking again repeats none.
    nextWarnAt: earliest(response.warnAt, response.dueAt, resolution.warnAt, resolution.dueAt),
  };
}

const same = (a: StoredClock, b: StoredClock) =>
  a.targetMinutes === b.targetMinutes &&
  a.clock === b.clock &&
  a.dueAt?.getTime() === b.dueAt?.getTime() &&
  a.elapsedMinutes === b.elapsedMinutes &&
  a.metAt?.getTime() === b.metAt?.getTime() &&
  a.met === b.met &&
  a.warnAt?.getTime() === b.warnAt?.getTime();

// ---------------------------------------------------------------------------
// One clock's steps (pure)
// ---------------------------------------------------------------------------

const runs = (status: IncidentStatus) => status === IncidentStatus.PENDING || status === IncidentStatus.IN_PROGRESS;

/** Whether the clock can ever reach its target: a working clock needs opening hours. */
const counts = (c: StoredClock, s: Settings) => c.clock === "calendar" || hasOpeningHours(s.cal);

/**
 * The clock minutes counted up to `at`. While it runs, they follow from the due instant (what remains
 * before it, or how far past it `at` is), so no start of the run is stored; stopped, they are stored.
 */
export function elapsedAt(c: StoredClock, at: Date, s: Settings): number {
  if (c.targetMinutes === null || c.clock === null) return 0;
  if (c.dueAt === null) return c.elapsedMinutes ?? 0;
  return at <= c.dueAt
    ? c.targetMinutes - clockMinutesBetween(at, c.dueAt, c.clock, s.cal)
    : c.targetMinutes + clockMinutesBetween(c.dueAt, at, c.clock, s.cal);
}

/** The clock (not met, with a target) running from `at`, having counted `elapsed` before. */
function running(c: StoredClock, elapsed: number, at: Date, s: Settings): StoredClock {
  if (c.targetMinutes === null || c.clock === null) return NONE;
  const stopped = { ...c, dueAt: null, warnAt: null, elapsedMinutes: elapsed, metAt: null, met: null };
  if (!counts(c, s)) return stopped;
  const remaining = Math.max(0, c.targetMinutes - elapsed);
  const dueAt = addClockTime(at, remaining, c.clock, s.cal);
  const warnAt = s.lead === null ? null : addClockTime(at, Math.max(0, remaining - s.lead), c.clock, s.cal);
  return { ...stopped, dueAt, warnAt };
}

/** The clock stopped at `at`: what it counted is kept for when it runs again. */
function stopped(c: StoredClock, at: Date, s: Settings): StoredClock {
  if (c.targetMinutes === null || c.dueAt === null) return c;
  return { ...c, dueAt: null, warnAt: null, elapsedMinutes: elapsedAt(c, at, s) };
}

/** The target met at `at`: in time when the clock had counted no more than the target. */
function met(c: StoredClock, at: Date, s: Settings): StoredClock {
  if (c.targetMinutes === null || c.metAt !== null) return c;
  const elapsed = elapsedAt(c, at, s);
  return { ...c, dueAt: null, warnAt: null, elapsedMinutes: elapsed, metAt: at, met: elapsed <= c.targetMinutes };
}

/**
 * The clock under a target fixed anew at `at` (a priority or type change). A target met keeps its
 * outcome. Otherwise the time counted carries over when the clock's kind is the same; counted by
 * another kind (or not at all: no target before), it is counted again in the new kind from the report.
 */
function refixed(c: StoredClock, target: Target | null, createdAt: Date, at: Date, isRunning: boolean, s: Settings): StoredClock {
  if (c.metAt !== null) return c;
  if (target === null) return NONE;
  if (c.targetMinutes === target.minutes && c.clock === target.clock) return c;
  const elapsed = c.clock === target.clock ? elapsedAt(c, at, s) : clockMinutesBetween(createdAt, at, target.clock, s.cal);
  const next: StoredClock = { ...NONE, targetMinutes: target.minutes, clock: target.clock, elapsedMinutes: elapsed };
  return isRunning ? running(next, elapsed, at, s) : next;
}

// ---------------------------------------------------------------------------
// The verbs' calls
// ---------------------------------------------------------------------------

/** `incidents.id` among `ids`, as one array parameter (a cascade may reject more rows than a statement takes parameters). */
const idIn = (ids: readonly number[]) => sql`${incidents.id} = any(${`{${ids.map((id) => Math.trunc(id)).join(",")}}`}::int[])`;

async function settingsOf(ctx: ServiceContext): Promise<Settings> {
  const [cal, lead, [entity]] = await Promise.all([
    workingCalendar(ctx),
    warningLead(ctx),
    ctx.db.select({ timeZone: entities.timeZone }).from(entities).where(eq(entities.id, ctx.entityId)),
  ]);
  // The entity's own zone, whoever acts (a job's context may carry the default one).
  return { cal: { ...cal, timeZone: entity?.timeZone ?? cal.timeZone }, lead };
}

async function write(ctx: ServiceContext, id: number, response: StoredClock, resolution: StoredClock): Promise<void> {
  await ctx.db
    .update(incidents)
    .set(columns(response, resolution))
    .where(and(eq(incidents.id, id), eq(incidents.entityId, ctx.entityId)));
}

/** The clocks of `after` given what they were on `before` (the same row before the change), at `at`. */
function follow(before: ClockRow, after: ClockRow, at: Date, s: Settings, targets: { response: Target | null; resolution: Target | null } | null) {
  const isRunning = runs(after.status);
  const wasRunning = runs(before.status);
  const next = (side: Side): StoredClock => {
    let c = read(before, side);
    // A priority or type change re-fixes the targets first, on the clock as it stood before the change.
    if (targets) c = refixed(c, targets[side], after.createdAt, at, wasRunning, s);
    if (c.targetMinutes === null) return c;
    if (side === "resolution") {
      // Done meets the resolution target; leaving Done undoes that, and the clock continues.
      if (after.status === IncidentStatus.DONE) return met(c, at, s);
      // (Archiving a Done incident keeps its outcome.)
      if (c.metAt !== null && before.status === IncidentStatus.DONE && after.status !== IncidentStatus.ARCHIVED) {
        const reopened = { ...c, metAt: null, met: null };
        return isRunning ? running(reopened, c.elapsedMinutes ?? 0, at, s) : reopened;
      }
    } else if (after.assigneeId !== null || after.status === IncidentStatus.IN_PROGRESS || after.status === IncidentStatus.DONE) {
      // The first assignment or the first move to In Progress answers the incident, once (Done without
      // either answers it too: someone did).
      return met(c, at, s);
    }
    if (c.metAt !== null) return c;
    if (wasRunning && !isRunning) return stopped(c, at, s);
    if (!wasRunning && isRunning) return running(c, c.elapsedMinutes ?? 0, at, s);
    return c;
  };
  return { response: next("response"), resolution: next("resolution") };
}

/**
 * A new incident (any way it is reported): its targets fixed from its priority and type and the
 * entity's settings, its clocks started at its creation (met at once for a first assignee).
 */
export async function startIncidentClocks(ctx: ServiceContext, incident: Incident): Promise<void> {
  const targets = await targetsFor(ctx, incident.incidentTypeId, incident.priority);
  if (!targets.response && !targets.resolution) return;
  const s = await settingsOf(ctx);
  const at = incident.createdAt;
  const start = (t: Target | null): StoredClock => (t ? running({ ...NONE, targetMinutes: t.minutes, clock: t.clock }, 0, at, s) : NONE);
  const reported: ClockRow = { ...incident, ...asColumns(start(targets.response), start(targets.resolution)), status: IncidentStatus.PENDING, assigneeId: null };
  const { response, resolution } = follow(reported, incident, at, s, null);
  await write(ctx, incident.id, response, resolution);
}

/** A row's clock columns holding these clocks (for a "before" row made by hand). */
function asColumns(response: StoredClock, resolution: StoredClock): Omit<ClockRow, "id" | "status" | "assigneeId" | "priority" | "incidentTypeId" | "createdAt"> {
  const { nextDueAt: _due, nextWarnAt: _warn, ...c } = columns(response, resolution);
  return c as Omit<ClockRow, "id" | "status" | "assigneeId" | "priority" | "incidentTypeId" | "createdAt">;
}

/**
 * After a change of `before` into `after` (status, assignee, priority or type) at `at`: stops, resumes,
 * meets or re-fixes the clocks. Writes nothing when they stay as they were.
 */
export async function followIncidentClocks(ctx: ServiceContext, before: Incident, after: Incident, at: Date = after.updatedAt): Promise<void> {
  const retarget = before.priority !== after.priority || before.incidentTypeId !== after.incidentTypeId;
  const hasClock = before.responseTargetMinutes !== null || before.resolutionTargetMinutes !== null;
  if (!retarget && !hasClock) return;
  const targets = retarget ? await targetsFor(ctx, after.incidentTypeId, after.priority) : null;
  if (targets && !targets.response && !targets.resolution && !hasClock) return;
  const s = await settingsOf(ctx);
  const { response, resolution } = follow(before, after, at, s, targets);
  if (same(response, read(before, "response")) && same(resolution, read(before, "resolution"))) return;
  await write(ctx, after.id, response, resolution);
}

/** After a set-based status change to a stopped status (archiving a place rejects its open incidents). */
export async function stopIncidentClocks(ctx: ServiceContext, ids: readonly number[], from: Map<number, IncidentStatus>, at: Date): Promise<void> {
  if (ids.length === 0) return;
  const rows = await ctx.db
    .select()
    .from(incidents)
    .where(and(eq(incidents.entityId, ctx.entityId), idIn(ids), isNotNull(incidents.nextDueAt)));
  if (rows.length === 0) return;
  const s = await settingsOf(ctx);
  for (const row of rows) {
    const { response, resolution } = follow({ ...row, status: from.get(row.id) ?? IncidentStatus.PENDING }, row, at, s, null);
    await write(ctx, row.id, response, resolution);
  }
}

/** After a set-based change of type (archiving a type takes it off open incidents): the targets re-fixed. */
export async function refixIncidentClocks(ctx: ServiceContext, ids: readonly number[], previousTypeId: number, at: Date): Promise<void> {
  if (ids.length === 0) return;
  // Nothing to do for an entity that has no targets at all (the common case).
  const [any] = await ctx.db.select({ id: serviceLevelTargets.id }).from(serviceLevelTargets).where(eq(serviceLevelTargets.entityId, ctx.entityId)).limit(1);
  const rows = await ctx.db
    .select()
    .from(incidents)
    .where(
      and(
        eq(incidents.entityId, ctx.entityId),
        idIn(ids),
        any ? undefined : or(isNotNull(incidents.responseTargetMinutes), isNotNull(incidents.resolutionTargetMinutes)),
      ),
    );
  for (const row of rows) await followIncidentClocks(ctx, { ...row, incidentTypeId: previousTypeId }, row, at);
}

/** One change of an incident's history that moves its clocks, at `at`: only the fields that changed. */
export interface ClockStep {
  at: Date;
  status?: IncidentStatus;
  assigneeId?: number | null;
  priority?: IncidentPriority;
}

/**
 * An incident's clocks recomputed from its history, for rows written without the verbs (the demo seed):
 * reported at its `createdAt` Pending, unassigned and of `reportedPriority`, then each step in time order,
 * as the verbs would have followed them (the targets are the entity's current settings). Writes them.
 */
export async function replayIncidentClocks(ctx: ServiceContext, incident: Incident, reportedPriority: IncidentPriority, steps: readonly ClockStep[]): Promise<void> {
  const s = await settingsOf(ctx);
  const targets = await targetsFor(ctx, incident.incidentTypeId, reportedPriority);
  const at = incident.createdAt;
  const start = (t: Target | null): StoredClock => (t ? running({ ...NONE, targetMinutes: t.minutes, clock: t.clock }, 0, at, s) : NONE);
  let row: ClockRow = {
    ...incident,
    ...asColumns(start(targets.response), start(targets.resolution)),
    status: IncidentStatus.PENDING,
    assigneeId: null,
    priority: reportedPriority,
  };
  for (const step of [...steps].sort((a, b) => a.at.getTime() - b.at.getTime())) {
    const { at: when, ...change } = step;
    const after: ClockRow = { ...row, ...change };
    const retarget = after.priority !== row.priority ? await targetsFor(ctx, after.incidentTypeId, after.priority) : null;
    const { response, resolution } = follow(row, after, when, s, retarget);
    row = { ...after, ...asColumns(response, resolution) };
  }
  await write(ctx, incident.id, read(row, "response"), read(row, "resolution"));
}

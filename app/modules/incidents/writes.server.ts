import { and, eq, isNull, type SQL, sql } from "drizzle-orm";
import type { ServiceContext } from "~/core/context.server";
import { roleMay } from "~/core/role-sql.server";
import type { Effects, StatementEffects } from "~/core/unit-of-work.server";
import { type IncidentPriority, IncidentEventType, IncidentStatus, UserStatus } from "~/db/enums";
import { type Incident, incidentChecklistAnswers, incidentEvents, incidentFiles, incidents, users } from "~/db/schema";
import { nextShortId } from "~/db/short-id.server";
import { rowsOf } from "~/lib/list-page.server";
import { refixIncidentClocks, startIncidentClocks, stopIncidentClocks } from "~/modules/service-levels/clocks.server";
import { incidentAssigned, incidentCreated, incidentReportedAgain, incidentStatusChanged, incidentTypeRemoved } from "./changes.server";

/**
 * Every write of incidents that another area makes, owned here so that each writes the incident's
 * events and emits its change (./changes.server.ts) like the incidents' own verbs (the counters follow
 * by trigger): an occupier's report creates or folds, archiving a place rejects, archiving a user reassigns,
 * archiving an incident type takes the type off. Each runs inside the caller's unit of work. They check
 * no permission: the calling verb has (it is the caller's change), and writes only rows of its entity.
 */

const OPEN = sql.raw(`${IncidentStatus.PENDING}, ${IncidentStatus.IN_PROGRESS}`);

/** An incident's event row (types 0-10), by the context's actor. */
export async function recordIncidentEvent(ctx: ServiceContext, incidentId: number, type: IncidentEventType, oldValue: unknown, newValue: unknown): Promise<void> {
  await ctx.db.insert(incidentEvents).values({
    entityId: ctx.entityId,
    incidentId,
    type,
    actorId: ctx.actor?.id ?? null,
    oldValue: oldValue ?? null,
    newValue: newValue ?? null,
  });
}

export interface NewReportedIncident {
  title: string;
  description: string | null;
  roomId: number;
  equipmentItemId: number | null;
  location: string | null;
  floor: string | null;
  priority: IncidentPriority;
  /** Its type; none for an inspection check that names none. */
  incidentTypeId: number | null;
  /** Its first assignee (the type's default assignee who reaches the room), or nobody. */
  assigneeId: number | null;
  at: Date;
}

/**
 * A new incident reported at a place (an occupier's sticker, or staff from the room view): event 0
 * (and event 1 for its first assignee, by nobody) and `incident.created`.
 */
export async function createReportedIncident(ctx: ServiceContext, effects: Effects, values: NewReportedIncident): Promise<Incident> {
  const shortId = await nextShortId(ctx.db, ctx.entityId, "incident");
  const [row] = await ctx.db
    .insert(incidents)
    .values({
      entityId: ctx.entityId,
      shortId,
      title: values.title,
      description: values.description,
      roomId: values.roomId,
      equipmentItemId: values.equipmentItemId,
      location: values.location,
      floor: values.floor,
      priority: values.priority,
      status: IncidentStatus.PENDING,
      assigneeId: values.assigneeId,
      incidentTypeId: values.incidentTypeId,
      createdAt: values.at,
      lastOccurrenceAt: values.at,
      updatedAt: values.at,
    })
    .returning();
  await startIncidentClocks(ctx, row);
  const source = !ctx.actor ? "occupier" : ctx.actor.kind === "system" ? "import" : "staff";
  await recordIncidentEvent(ctx, row.id, IncidentEventType.CREATED, null, { source });
  if (values.assigneeId) {
    const [person] = await ctx.db
      .select({ name: users.name, surname: users.surname })
      .from(users)
      .where(and(eq(users.id, values.assigneeId), eq(users.entityId, ctx.entityId)));
    await ctx.db.insert(incidentEvents).values({
      entityId: ctx.entityId,
      incidentId: row.id,
      type: IncidentEventType.ASSIGNED,
      actorId: null,
      oldValue: null,
      newValue: { id: values.assigneeId, name: person ? `${person.name} ${person.surname}` : "" },
    });
  }
  await effects.emit(incidentCreated, { incidentId: row.id, shortId: row.shortId, assigneeId: row.assigneeId, source });
  return row;
}

/** An answer an incident carries (a report's checklist, or the inspection that opened it). */
export interface IncidentAnswer {
  position: number;
  question: string;
  contentType: number;
  answer: string | null;
  fileId?: string | null;
}

/** Attaches answers and already stored files (their ids) to an incident of the context's entity. */
export async function attachToIncident(ctx: ServiceContext, incidentId: number, parts: { answers: IncidentAnswer[]; fileIds: string[] }): Promise<void> {
  if (parts.answers.length) {
    await ctx.db.insert(incidentChecklistAnswers).values(parts.answers.map((a) => ({ entityId: ctx.entityId, incidentId, position: a.position, question: a.question, contentType: a.contentType, answer: a.answer, fileId: a.fileId ?? null })));
  }
  if (parts.fileIds.length) {
    await ctx.db.insert(incidentFiles).values(parts.fileIds.map((fileId) => ({ entityId: ctx.entityId, incidentId, fileId }))).onConflictDoNothing();
  }
}

/**
 * Folds a report into the open incident of its place and type, in one statement: the incident is
 * locked, gets one more occurrence, its event 10 (old count, new count, the note) and the change
 * `incident.reported-again`. Reports folding into it wait for each other on its row only while the
 * statement runs, and each adds exactly one. Null when no incident of that place and type is open.
 */
export async function foldIntoOpenIncident(
  ctx: Pick<ServiceContext, "db" | "entityId" | "actor" | "requestId">,
  effects: Pick<StatementEffects, "changesSql">,
  report: { typeId: number; roomId: number; equipmentItemId: number | null; description: string | null; at: Date },
): Promise<{ id: number; shortId: number; occurrences: number } | null> {
  const openHere = and(
    eq(incidents.entityId, ctx.entityId),
    eq(incidents.incidentTypeId, report.typeId),
    eq(incidents.roomId, report.roomId),
    report.equipmentItemId ? eq(incidents.equipmentItemId, report.equipmentItemId) : isNull(incidents.equipmentItemId),
    sql`${incidents.status} in (${OPEN})`,
    isNull(incidents.archivedAt),
    isNull(incidents.duplicateOfId),
  );
  const at = report.at.toISOString();
  const change = effects.changesSql(
    incidentReportedAgain,
    sql`select b.id as subject_id, jsonb_build_object('incidentId', b.id, 'shortId', b.short_id, 'occurrences', b.occurrences) as payload from bumped b`,
  );
  // tenant-scope: scoped by openHere (incidents of ctx.entityId); the update and inserts follow from that row
  const result = await ctx.db.execute(sql`
    with open as (
      select id, occurrences from ${incidents} where ${openHere} order by id limit 1 for update
    ), bumped as (
      update ${incidents} i set occurrences = i.occurrences + 1, last_occurrence_at = ${at}::timestamptz, updated_at = ${at}::timestamptz
      from open where i.id = open.id
      returning i.id, i.short_id, i.occurrences, open.occurrences as old
    ), event as (
      insert into ${incidentEvents} (entity_id, incident_id, type, actor_id, old_value, new_value)
      select ${ctx.entityId}, bumped.id, ${IncidentEventType.REPORTED_AGAIN}, ${ctx.actor?.id ?? null}::int, to_jsonb(bumped.old),
        jsonb_build_object('occurrences', bumped.occurrences, 'description', ${report.description}::text)
      from bumped
    ), change as (${change})
    select id, short_id, occurrences from bumped`);
  const [row] = rowsOf<{ id: number | string; short_id: number | string; occurrences: number | string }>(result);
  return row ? { id: Number(row.id), shortId: Number(row.short_id), occurrences: Number(row.occurrences) } : null;
}

/**
 * Turns the Pending and In Progress incidents matching `where` (a condition on `incidents` aliased
 * `i`) to Rejected (archiving a place or equipment, SPEC.md section 4), as `setIncidentStatus` would
 * one by one: event 2 and `incident.status-changed` each. Set-based: one statement whatever the
 * number. Returns how many changed.
 */
export async function rejectOpenIncidents(ctx: ServiceContext, effects: Effects, where: SQL): Promise<number> {
  const rejected = IncidentStatus.REJECTED;
  const changes = effects.changesSql(
    incidentStatusChanged,
    sql`select c.id as subject_id, jsonb_build_object('incidentId', c.id, 'shortId', c.short_id, 'assigneeId', c.assignee_id, 'from', c.old_status, 'to', ${rejected}::int) as payload from changed c`,
  );
  // tenant-scope: scoped by the target rows (incidents of ctx.entityId); the update joins them by id
  const result = await ctx.db.execute(sql`
    with target as (
      select i.id, i.status from incidents i
      where i.entity_id = ${ctx.entityId} and i.archived_at is null and i.status in (${OPEN}) and (${where})
      for update
    ), changed as (
      update incidents u set status = ${rejected}, updated_at = now()
      from target t where u.id = t.id
      returning u.id, u.short_id, u.room_id, u.assignee_id, t.status as old_status
    ), events as (
      insert into incident_events (entity_id, incident_id, type, actor_id, old_value, new_value)
      select ${ctx.entityId}, c.id, ${IncidentEventType.STATUS_UPDATE}, ${ctx.actor?.id ?? null}::int,
        to_jsonb(c.old_status::int), to_jsonb(${rejected}::int)
      from changed c
    ), changes as (${changes})
    select c.id, c.old_status, now() as at from changed c`);
  const rows = rowsOf<{ id: number | string; old_status: number | string; at: Date | string }>(result);
  // Their service-level clocks stop (as `setIncidentStatus` would stop them), at the statement's time.
  if (rows.length > 0) {
    const from = new Map(rows.map((r) => [Number(r.id), Number(r.old_status) as IncidentStatus]));
    await stopIncidentClocks(ctx, [...from.keys()], from, new Date(rows[0].at));
  }
  return rows.length;
}

/** A person as incident events record them. */
export interface PersonRef {
  id: number;
  name: string;
}

/**
 * How many of `fromUserId`'s Pending and In Progress incidents `toUserId` could not be assigned (not an
 * active user of the entity whose role may handle incidents and who reaches their room, as
 * `assigneeCandidates` says): archiving a user refuses such a successor.
 */
export async function openIncidentsOutOfReach(ctx: ServiceContext, fromUserId: number, toUserId: number): Promise<number> {
  const result = await ctx.db.execute(sql`
    select count(*)::int as n from incidents i
    where i.entity_id = ${ctx.entityId} and i.assignee_id = ${fromUserId} and i.status in (${OPEN}) and i.archived_at is null
      and not exists (
        select 1 from users u where u.id = ${toUserId} and u.entity_id = ${ctx.entityId} and u.archived_at is null and u.status <> ${UserStatus.DISABLED}
          and ${roleMay(sql`u.role`, "handle", "incident")}
          and (${roleMay(sql`u.role`, "reach", "wholeEntity")} or exists (
            select 1 from user_linked_objects l join rooms r on r.id = i.room_id and r.entity_id = ${ctx.entityId}
            join buildings b on b.id = r.building_id
            where l.user_id = u.id and l.entity_id = ${ctx.entityId} and (l.facility_id = b.facility_id or l.building_id = b.id))))`);
  return Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
}

/**
 * Archiving a user (SPEC.md section 4): their Pending and In Progress incidents go to `to`, or become
 * unassigned (null), as `assignIncident` would one by one: event 1 and `incident.assigned` each (so the
 * successor is told). Returns how many moved. Their service-level clocks do not move: an incident that
 * was assigned has had its response, and resolution does not depend on who holds it.
 */
export async function reassignUser(ctx: ServiceContext, effects: Effects, from: PersonRef, to: PersonRef | null): Promise<number> {
  const changes = effects.changesSql(
    incidentAssigned,
    sql`select m.id as subject_id, jsonb_build_object('incidentId', m.id, 'shortId', m.short_id, 'from', ${from.id}::int, 'to', ${to?.id ?? null}::int) as payload from moved m`,
  );
  const result = await ctx.db.execute(sql`
    with moved as (
      update incidents set assignee_id = ${to?.id ?? null}::int, updated_at = now()
      where entity_id = ${ctx.entityId} and assignee_id = ${from.id} and status in (${OPEN}) and archived_at is null
      returning id, short_id
    ), events as (
      insert into incident_events (entity_id, incident_id, type, actor_id, old_value, new_value)
      select ${ctx.entityId}, m.id, ${IncidentEventType.ASSIGNED}, ${ctx.actor?.id ?? null}::int,
        ${JSON.stringify(from)}::jsonb, ${to ? JSON.stringify(to) : null}::jsonb
      from moved m
    ), changes as (${changes})
    select count(*)::int as n from moved`);
  return Number(rowsOf<{ n: number }>(result)[0]?.n ?? 0);
}

/**
 * Archiving an incident type (SPEC.md section 4): it is taken off Pending and In Progress incidents,
 * each with event 9 (old value the type) and `incident.type-removed`; Done and Rejected incidents keep
 * it for history and statistics. Returns how many changed.
 */
export async function removeIncidentType(ctx: ServiceContext, effects: Effects, type: PersonRef): Promise<number> {
  const changes = effects.changesSql(
    incidentTypeRemoved,
    sql`select c.id as subject_id, jsonb_build_object('incidentId', c.id, 'shortId', c.short_id, 'incidentTypeId', ${type.id}::int) as payload from changed c`,
  );
  const result = await ctx.db.execute(sql`
    with changed as (
      update incidents set incident_type_id = null, updated_at = now()
      where entity_id = ${ctx.entityId} and incident_type_id = ${type.id} and status in (${OPEN}) and archived_at is null
      returning id, short_id
    ), events as (
      insert into incident_events (entity_id, incident_id, type, actor_id, old_value, new_value)
      select ${ctx.entityId}, c.id, ${IncidentEventType.INCIDENT_TYPE_REMOVED}, ${ctx.actor?.id ?? null}::int, ${JSON.stringify(type)}::jsonb, null
      from changed c
    ), changes as (${changes})
    select c.id, now() as at from changed c`);
  const rows = rowsOf<{ id: number | string; at: Date | string }>(result);
  // Without the type, the entity's own targets apply (as a type change would re-fix them).
  if (rows.length > 0) await refixIncidentClocks(ctx, rows.map((r) => Number(r.id)), type.id, new Date(rows[0].at));
  return rows.length;
}

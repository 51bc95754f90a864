import { and, asc, count, desc, eq, inArray, isNull, or, type SQL, sql } from "drizzle-orm";
import { assertCan } from "~/core/actor";
import { readAll, type ServiceContext } from "~/core/context.server";
import { fieldColumns } from "~/core/fields.server";
import type { FieldKey } from "~/lib/fields";
import { IncidentStatus, IncidentTypeStatus } from "~/db/enums";
import { equipmentTypes, incidents, incidentTypeChecklistItems, incidentTypeDefaultAssignees, incidentTypeEquipmentTypes, incidentTypeRooms, incidentTypeRoomTypes, incidentTypes, rooms, roomTypes, users } from "~/db/schema";
import { NotFoundError } from "~/lib/errors";
import { nameLike, readPage } from "~/lib/list-page.server";
import type { ListQuery, Page } from "~/lib/list-query";
import { treeScope } from "~/modules/facilities/policy.server";
import { INCIDENT_TYPE_FIELDS } from "./schema";

/**
 * Reads of incident types that other areas need (rooms and generic equipment link them). The name is
 * multi-language: the user's language first, then the others.
 */
export function incidentTypeName(locale: string): SQL<string> {
  const order =
    locale.startsWith("fr")
      ? [incidentTypes.nameFr, incidentTypes.nameEn, incidentTypes.nameNl]
      : locale.startsWith("nl")
        ? [incidentTypes.nameNl, incidentTypes.nameEn, incidentTypes.nameFr]
        : [incidentTypes.nameEn, incidentTypes.nameFr, incidentTypes.nameNl];
  return sql<string>`coalesce(${order[0]}, ${order[1]}, ${order[2]})`;
}

/** A checklist question in `locale`, then in the others (columns of `incident_type_checklist_items`, aliased `alias` when given). */
export function checklistQuestion(locale: string, alias?: string): SQL<string> {
  const column = (name: "question" | "question_fr" | "question_nl") =>
    alias ? sql.raw(`${alias}.${name}`) : { question: incidentTypeChecklistItems.question, question_fr: incidentTypeChecklistItems.questionFr, question_nl: incidentTypeChecklistItems.questionNl }[name];
  const order = locale.startsWith("fr") ? (["question_fr", "question", "question_nl"] as const) : locale.startsWith("nl") ? (["question_nl", "question", "question_fr"] as const) : (["question", "question_fr", "question_nl"] as const);
  return sql<string>`coalesce(${column(order[0])}, ${column(order[1])}, ${column(order[2])}, '')`;
}

export interface IncidentTypeOption {
  id: number;
  name: string;
}

/** Active incident types of the entity, by name in the user's language. */
export async function listIncidentTypeOptions(ctx: ServiceContext): Promise<IncidentTypeOption[]> {
  const name = incidentTypeName(ctx.locale);
  return ctx.db
    .select({ id: incidentTypes.id, name })
    .from(incidentTypes)
    .where(and(eq(incidentTypes.entityId, ctx.entityId), isNull(incidentTypes.archivedAt)))
    .orderBy(asc(sql`lower(${name})`), asc(incidentTypes.id));
}

/** The ids among `ids` that are active incident types of the entity (locked for share: call it in a transaction). */
export async function activeIncidentTypeIds(ctx: ServiceContext, ids: number[]): Promise<Set<number>> {
  if (ids.length === 0) return new Set();
  const rows = await ctx.db
    .select({ id: incidentTypes.id })
    .from(incidentTypes)
    .where(and(eq(incidentTypes.entityId, ctx.entityId), isNull(incidentTypes.archivedAt), inArray(incidentTypes.id, ids)))
    // Held until the caller's transaction ends, so the types cannot be archived in between.
    .for("share");
  return new Set(rows.map((r) => r.id));
}

// ---------------------------------------------------------------------------
// The incident types screens and REST calls
// ---------------------------------------------------------------------------

export const incidentTypeNotFound = () => new NotFoundError("incidentTypes:errors.notFound", "INCIDENT_TYPE_NOT_FOUND");

export const INCIDENT_TYPE_SORTS = ["name", "priority", "status"] as const;
export type IncidentTypeSort = (typeof INCIDENT_TYPE_SORTS)[number];

export interface IncidentTypeNames {
  nameEn: string | null;
  nameFr: string | null;
  nameNl: string | null;
}

/** A type's declared fields (schema.ts) as its table stores them: its names, default priority, yes/no choices. */
export type IncidentTypeFields = Pick<typeof incidentTypes.$inferSelect, FieldKey<typeof INCIDENT_TYPE_FIELDS>>;

export interface IncidentTypeRow extends IncidentTypeNames, IncidentTypeFields {
  id: number;
  /** The name in the reader's language, else another. */
  name: string;
  status: number;
  untranslated: string[];
  roomTypes: { id: number; name: string }[];
  equipmentTypes: { id: number; name: string }[];
  rooms: { id: number; name: string }[];
  /** Pending and In Progress incidents of the type. */
  openIncidents: number;
}

const baseFields = (locale: string) => ({
  id: incidentTypes.id,
  name: incidentTypeName(locale),
  ...fieldColumns(incidentTypes, INCIDENT_TYPE_FIELDS),
  status: incidentTypes.status,
  untranslated: incidentTypes.untranslated,
});

/** Where the given types apply and how many open incidents use them: one statement per kind, for these ids only. */
async function partsOf(ctx: ServiceContext, ids: number[]) {
  const e = ctx.entityId;
  const empty = { roomTypes: new Map<number, { id: number; name: string }[]>(), equipmentTypes: new Map<number, { id: number; name: string }[]>(), rooms: new Map<number, { id: number; name: string }[]>(), open: new Map<number, number>() };
  if (!ids.length) return empty;
  const [rt, et, rm, open] = await readAll(ctx, [
    () => ctx.db
      .select({ typeId: incidentTypeRoomTypes.incidentTypeId, id: roomTypes.id, name: roomTypes.name })
      .from(incidentTypeRoomTypes)
      .innerJoin(roomTypes, eq(roomTypes.id, incidentTypeRoomTypes.roomTypeId))
      .where(and(eq(incidentTypeRoomTypes.entityId, e), inArray(incidentTypeRoomTypes.incidentTypeId, ids), isNull(roomTypes.archivedAt)))
      .orderBy(asc(sql`lower(${roomTypes.name})`)),
    () => ctx.db
      .select({ typeId: incidentTypeEquipmentTypes.incidentTypeId, id: equipmentTypes.id, name: equipmentTypes.name })
      .from(incidentTypeEquipmentTypes)
      .innerJoin(equipmentTypes, eq(equipmentTypes.id, incidentTypeEquipmentTypes.equipmentTypeId))
      .where(and(eq(incidentTypeEquipmentTypes.entityId, e), inArray(incidentTypeEquipmentTypes.incidentTypeId, ids), isNull(equipmentTypes.archivedAt)))
      .orderBy(asc(sql`lower(${equipmentTypes.name})`)),
    () => ctx.db
      .select({ typeId: incidentTypeRooms.incidentTypeId, id: rooms.id, name: rooms.name })
      .from(incidentTypeRooms)
      .innerJoin(rooms, eq(rooms.id, incidentTypeRooms.roomId))
      .where(and(eq(incidentTypeRooms.entityId, e), inArray(incidentTypeRooms.incidentTypeId, ids), isNull(rooms.archivedAt), treeScope(ctx, "room")))
      .orderBy(asc(sql`lower(${rooms.name})`)),
    () => ctx.db
      .select({ typeId: incidents.incidentTypeId, n: count() })
      .from(incidents)
      .where(
        and(
          eq(incidents.entityId, e),
          inArray(incidents.incidentTypeId, ids),
          inArray(incidents.status, [IncidentStatus.PENDING, IncidentStatus.IN_PROGRESS]),
          isNull(incidents.archivedAt),
        ),
      )
      .groupBy(incidents.incidentTypeId),
  ]);
  const group = <T extends { typeId: number }>(rows: T[]) => {
    const map = new Map<number, Omit<T, "typeId">[]>();
    for (const { typeId, ...rest } of rows) map.set(typeId, [...(map.get(typeId) ?? []), rest]);
    return map;
  };
  return {
    roomTypes: group(rt),
    equipmentTypes: group(et),
    rooms: group(rm),
    open: new Map(open.map((o) => [o.typeId as number, Number(o.n)])),
  };
}

/**
 * The incident types of the entity (/configuration?tab=incident-types, GET /api/incident-types):
 * search over the three names, status filter (none or active; archived types are gone), sorted and
 * paged in SQL; where each applies and its open incidents are read for the page's rows only.
 */
export async function listIncidentTypes(
  ctx: ServiceContext,
  query: ListQuery<IncidentTypeSort>,
  filters: { status?: number | null } = {},
): Promise<Page<IncidentTypeRow>> {
  assertCan(ctx.actor, "manage", "incidentType");
  const q = query.q;
  const where = and(
    eq(incidentTypes.entityId, ctx.entityId),
    isNull(incidentTypes.archivedAt),
    filters.status != null ? eq(incidentTypes.status, filters.status as IncidentTypeStatus) : undefined,
    q ? or(nameLike(sql`coalesce(${incidentTypes.nameEn}, '')`, q), nameLike(sql`coalesce(${incidentTypes.nameFr}, '')`, q), nameLike(sql`coalesce(${incidentTypes.nameNl}, '')`, q)) : undefined,
  );
  const by = query.dir === "desc" ? desc : asc;
  const name = incidentTypeName(ctx.locale);
  const order = { name: [by(sql`lower(${name})`)], priority: [by(incidentTypes.defaultPriority), asc(sql`lower(${name})`)], status: [by(incidentTypes.status), asc(sql`lower(${name})`)] }[query.sort];
  const page = await readPage(
    query,
    ctx.db.select(baseFields(ctx.locale)).from(incidentTypes).where(where).orderBy(...order, asc(incidentTypes.id)).$dynamic(),
    ctx.db.select({ n: count() }).from(incidentTypes).where(where),
  );
  const parts = await partsOf(ctx, page.items.map((t) => t.id));
  return {
    ...page,
    items: page.items.map((t) => ({
      ...t,
      roomTypes: parts.roomTypes.get(t.id) ?? [],
      equipmentTypes: parts.equipmentTypes.get(t.id) ?? [],
      rooms: parts.rooms.get(t.id) ?? [],
      openIncidents: parts.open.get(t.id) ?? 0,
    })),
  };
}

export interface ChecklistItemView {
  id: number;
  position: number;
  /** In English, French and Dutch (null where not given). */
  question: string | null;
  questionFr: string | null;
  questionNl: string | null;
  tutorialLink: string | null;
  message: string | null;
  contentType: number;
}

export interface IncidentTypeDetail extends IncidentTypeRow {
  defaultAssignees: { id: number; name: string; surname: string }[];
  rooms: { id: number; name: string; buildingName?: string }[];
  checklist: ChecklistItemView[];
}

/** One incident type of the entity, not archived, with everything it links ("incident type not found" otherwise). */
export async function getIncidentType(ctx: ServiceContext, id: number): Promise<IncidentTypeDetail> {
  const [row] = await ctx.db
    .select(baseFields(ctx.locale))
    .from(incidentTypes)
    .where(and(eq(incidentTypes.id, id), eq(incidentTypes.entityId, ctx.entityId), isNull(incidentTypes.archivedAt)))
    .limit(1);
  if (!row) throw incidentTypeNotFound();
  const [parts, assignees, checklist] = await readAll(ctx, [
    () => partsOf(ctx, [id]),
    () => ctx.db
      .select({ id: users.id, name: users.name, surname: users.surname })
      .from(incidentTypeDefaultAssignees)
      .innerJoin(users, eq(users.id, incidentTypeDefaultAssignees.userId))
      .where(and(eq(incidentTypeDefaultAssignees.entityId, ctx.entityId), eq(incidentTypeDefaultAssignees.incidentTypeId, id), isNull(users.archivedAt)))
      .orderBy(asc(sql`lower(${users.surname})`), asc(sql`lower(${users.name})`)),
    () => ctx.db
      .select({
        id: incidentTypeChecklistItems.id,
        position: incidentTypeChecklistItems.position,
        question: incidentTypeChecklistItems.question,
        questionFr: incidentTypeChecklistItems.questionFr,
        questionNl: incidentTypeChecklistItems.questionNl,
        tutorialLink: incidentTypeChecklistItems.tutorialLink,
        message: incidentTypeChecklistItems.message,
        contentType: incidentTypeChecklistItems.contentType,
      })
      .from(incidentTypeChecklistItems)
      .where(and(eq(incidentTypeChecklistItems.entityId, ctx.entityId), eq(incidentTypeChecklistItems.incidentTypeId, id)))
      .orderBy(asc(incidentTypeChecklistItems.position), asc(incidentTypeChecklistItems.id)),
  ]);
  return {
    ...row,
    roomTypes: parts.roomTypes.get(id) ?? [],
    equipmentTypes: parts.equipmentTypes.get(id) ?? [],
    rooms: parts.rooms.get(id) ?? [],
    openIncidents: parts.open.get(id) ?? 0,
    defaultAssignees: assignees,
    checklist,
  };
}

/** The read model of the form (/update-incident-type/{id}): managers and administrators only. */
export async function getIncidentTypeForEdit(ctx: ServiceContext, id: number): Promise<IncidentTypeDetail> {
  assertCan(ctx.actor, "manage", "incidentType");
  return getIncidentType(ctx, id);
}

export interface ReportableIncidentType {
  id: number;
  name: string;
  defaultPriority: number;
  reporterMayChangePriority: boolean;
}

/**
 * The one answer to "which incident types may be reported here" (the report page, the room view):
 * active types of the entity that apply everywhere, or, for a room, to the room itself or its room
 * type; for an equipment item, to its generic equipment. Archived rooms and items have none.
 */
export async function listReportableIncidentTypes(
  ctx: ServiceContext,
  place: { roomId: number } | { equipmentItemId: number },
): Promise<ReportableIncidentType[]> {
  const name = incidentTypeName(ctx.locale);
  return ctx.db
    .select({ id: incidentTypes.id, name, defaultPriority: incidentTypes.defaultPriority, reporterMayChangePriority: incidentTypes.reporterMayChangePriority })
    .from(incidentTypes)
    .where(reportableHere(ctx, place))
    .orderBy(asc(sql`lower(${name})`), asc(incidentTypes.id));
}

/** Active types of the entity that apply to the place (see listReportableIncidentTypes). */
function reportableHere(ctx: ServiceContext, place: { roomId: number } | { equipmentItemId: number }) {
  const e = ctx.entityId;
  const applies =
    "roomId" in place
      // tenant-scope: scoped by the outer incident type (the caller's, in the entity) and the room or item checked in the entity first
      ? sql`exists (select 1 from rooms r where r.id = ${place.roomId} and r.entity_id = ${e} and r.archived_at is null)
          and (${incidentTypes.appliesEverywhere}
            or exists (select 1 from incident_type_rooms l where l.incident_type_id = ${incidentTypes.id} and l.room_id = ${place.roomId})
            or exists (select 1 from incident_type_room_types l join rooms r on r.room_type_id = l.room_type_id
                       where l.incident_type_id = ${incidentTypes.id} and r.id = ${place.roomId}))`
      // tenant-scope: scoped by the outer incident type (the caller's, in the entity) and the room or item checked in the entity first
      : sql`exists (select 1 from equipment_items i where i.id = ${place.equipmentItemId} and i.entity_id = ${e} and i.archived_at is null)
          and (${incidentTypes.appliesEverywhere}
            or exists (select 1 from incident_type_equipment_types l join equipment_items i on i.equipment_type_id = l.equipment_type_id
                       where l.incident_type_id = ${incidentTypes.id} and i.id = ${place.equipmentItemId}))`;
  return and(eq(incidentTypes.entityId, e), isNull(incidentTypes.archivedAt), eq(incidentTypes.status, IncidentTypeStatus.ACTIVE), applies);
}

export type ReportChecklistItem = { position: number; question: string; contentType: number };

/**
 * One type, if it may be reported at the place, with its checklist (in order): what a report needs of
 * its type, in one read (every report runs it).
 */
export async function getReportableIncidentType(
  ctx: ServiceContext,
  place: { roomId: number } | { equipmentItemId: number },
  typeId: number,
): Promise<(ReportableIncidentType & { checklist: ReportChecklistItem[] }) | null> {
  const [type] = await ctx.db
    .select({
      id: incidentTypes.id,
      name: incidentTypeName(ctx.locale),
      defaultPriority: incidentTypes.defaultPriority,
      reporterMayChangePriority: incidentTypes.reporterMayChangePriority,
      // (Written out: drizzle names a column of a one-table select without its table, which the subquery would misread.)
      checklist: sql<ReportChecklistItem[]>`coalesce((
        select json_agg(json_build_object('position', c.position, 'question', ${checklistQuestion(ctx.locale, "c")}, 'contentType', c.content_type) order by c.position, c.id)
        from incident_type_checklist_items c
        where c.incident_type_id = incident_types.id and c.entity_id = ${ctx.entityId}), '[]'::json)`,
    })
    .from(incidentTypes)
    .where(and(eq(incidentTypes.id, typeId), eq(incidentTypes.entityId, ctx.entityId), reportableHere(ctx, place)));
  return type ?? null;
}

import { eq } from "drizzle-orm";
import type { Db } from "~/db/client.server";
import { IncidentEventType, type IncidentPriority, IncidentStatus, Priority } from "~/db/enums";
import { equipmentItems, type Incident, incidentChecklistAnswers, incidentCommentFiles, incidentFiles, type IncidentComment, type IncidentEvent, type IncidentType, incidentComments, incidentEvents, incidentReporters, incidents, incidentTypeChecklistItems, incidentTypeDefaultAssignees, incidentTypeEquipmentTypes, incidentTypeRooms, incidentTypeRoomTypes, incidentTypes, type NewIncident, type NewIncidentComment, type NewIncidentEvent, type NewIncidentType, rooms } from "~/db/schema";
import { nextShortId } from "~/db/short-id.server";
import { type Overrides, sequence } from "./core";

export interface ChecklistItemInput {
  /** In English, French and Dutch (at least one). */
  question?: string | null;
  questionFr?: string | null;
  questionNl?: string | null;
  tutorialLink?: string | null;
  message?: string | null;
  contentType?: number;
}

export type CreateIncidentTypeOverrides = Overrides<NewIncidentType> & {
  defaultAssigneeIds?: number[];
  roomTypeIds?: number[];
  equipmentTypeIds?: number[];
  roomIds?: number[];
  checklist?: ChecklistItemInput[];
};

/** An active incident type (English name, medium default priority) with its optional links. */
export async function createIncidentType(db: Db, overrides: CreateIncidentTypeOverrides): Promise<IncidentType> {
  const { defaultAssigneeIds = [], roomTypeIds = [], equipmentTypeIds = [], roomIds = [], checklist = [], ...columns } =
    overrides;
  const { entityId } = columns;
  const hasName = columns.nameEn != null || columns.nameFr != null || columns.nameNl != null;
  const [row] = await db
    .insert(incidentTypes)
    .values({
      defaultPriority: Priority.MEDIUM,
      ...(hasName ? {} : { nameEn: `Incident type ${sequence()}` }),
      ...columns,
    })
    .returning();
  const incidentTypeId = row.id;
  if (defaultAssigneeIds.length > 0) {
    await db
      .insert(incidentTypeDefaultAssignees)
      .values(defaultAssigneeIds.map((userId) => ({ entityId, incidentTypeId, userId })));
  }
  if (roomTypeIds.length > 0) {
    await db
      .insert(incidentTypeRoomTypes)
      .values(roomTypeIds.map((roomTypeId) => ({ entityId, incidentTypeId, roomTypeId })));
  }
  if (equipmentTypeIds.length > 0) {
    await db
      .insert(incidentTypeEquipmentTypes)
      .values(equipmentTypeIds.map((equipmentTypeId) => ({ entityId, incidentTypeId, equipmentTypeId })));
  }
  if (roomIds.length > 0) {
    await db.insert(incidentTypeRooms).values(roomIds.map((roomId) => ({ entityId, incidentTypeId, roomId })));
  }
  if (checklist.length > 0) {
    await db.insert(incidentTypeChecklistItems).values(
      checklist.map((item, position) => ({
        entityId,
        incidentTypeId,
        position,
        question: item.question ?? null,
        questionFr: item.questionFr ?? null,
        questionNl: item.questionNl ?? null,
        tutorialLink: item.tutorialLink ?? null,
        message: item.message ?? null,
        contentType: item.contentType ?? 0,
      })),
    );
  }
  return row;
}

export type CreateIncidentOverrides = Overrides<NewIncident> & {
  /** Occupiers who reported it (one `incident_reporters` row each). */
  reporterEmails?: string[];
  /** Who created it, for the CREATED event (default null: an occupier). */
  createdById?: number | null;
  /**
   * What the CREATED event records as first reported, when the row holds a later state (a title the
   * manager rewrote, a priority changed since); default: the row's title, status and priority.
   */
  reportedAs?: { title?: string; status?: IncidentStatus; priority?: IncidentPriority };
};

const HOUR = 60 * 60 * 1000;

/**
 * A PENDING incident with the next short id and its CREATED event. `status`, `priority`, `createdAt`
 * and every other column can be overridden. With a `roomId`, location and floor default to the
 * room's; a DONE or ARCHIVED incident gets a `doneAt` (an hour after creation, at most now).
 */
export async function createIncident(db: Db, overrides: CreateIncidentOverrides): Promise<Incident> {
  const { reporterEmails = [], createdById = null, reportedAs = {}, ...columns } = overrides;
  const { entityId } = columns;
  const shortId = columns.shortId ?? (await nextShortId(db, entityId, "incident"));
  const createdAt = columns.createdAt ?? new Date();
  const status = columns.status ?? IncidentStatus.PENDING;

  // An incident on an equipment item lies in the item's room (reach is decided by the room).
  if (columns.equipmentItemId != null && columns.roomId === undefined) {
    const [item] = await db.select({ roomId: equipmentItems.roomId }).from(equipmentItems).where(eq(equipmentItems.id, columns.equipmentItemId));
    if (item) columns.roomId = item.roomId;
  }
  let { location, floor } = columns;
  if (columns.roomId != null && (location === undefined || floor === undefined)) {
    const [room] = await db
      .select({ name: rooms.name, floor: rooms.floor })
      .from(rooms)
      .where(eq(rooms.id, columns.roomId));
    if (room) {
      location ??= room.name;
      floor ??= room.floor;
    }
  }
  let { doneAt } = columns;
  if (doneAt === undefined && (status === IncidentStatus.DONE || status === IncidentStatus.ARCHIVED)) {
    doneAt = new Date(Math.max(createdAt.getTime(), Math.min(createdAt.getTime() + HOUR, Date.now())));
  }

  const [row] = await db
    .insert(incidents)
    .values({
      title: `Incident ${shortId}`,
      priority: Priority.MEDIUM,
      lastOccurrenceAt: createdAt,
      updatedAt: doneAt ?? createdAt,
      ...columns,
      location,
      floor,
      shortId,
      status,
      createdAt,
      doneAt,
    })
    .returning();

  await createIncidentEvent(db, {
    entityId,
    incidentId: row.id,
    type: IncidentEventType.CREATED,
    actorId: createdById,
    newValue: { title: row.title, status: row.status, priority: row.priority, ...reportedAs },
    createdAt,
  });
  if (reporterEmails.length > 0) {
    await db
      .insert(incidentReporters)
      .values(reporterEmails.map((email) => ({ entityId, incidentId: row.id, email, createdAt })));
  }
  return row;
}

export async function createIncidentEvent(
  db: Db,
  overrides: Overrides<NewIncidentEvent> & Pick<NewIncidentEvent, "incidentId" | "type">,
): Promise<IncidentEvent> {
  const [row] = await db.insert(incidentEvents).values(overrides).returning();
  return row;
}

export async function createIncidentComment(
  db: Db,
  overrides: Overrides<NewIncidentComment> & Pick<NewIncidentComment, "incidentId" | "authorId">,
): Promise<IncidentComment> {
  const [row] = await db
    .insert(incidentComments)
    .values({ body: `Comment ${sequence()}`, ...overrides })
    .returning();
  return row;
}

/** Several events in one statement (in the order given: give them in time order). */
export async function createIncidentEvents(
  db: Db,
  rows: (Overrides<NewIncidentEvent> & Pick<NewIncidentEvent, "incidentId" | "type">)[],
): Promise<IncidentEvent[]> {
  if (rows.length === 0) return [];
  return db.insert(incidentEvents).values(rows).returning();
}

export interface ChecklistAnswerInput {
  question: string;
  contentType?: number;
  /** "yes"/"no", a text, a number as text; null when not answered (or a photo, see fileId). */
  answer?: string | null;
  fileId?: string | null;
}

/** The answers to an incident type's checklist, positions 0.. in the order given. */
export async function createChecklistAnswers(
  db: Db,
  overrides: { entityId: number; incidentId: number; answers: ChecklistAnswerInput[]; createdAt?: Date },
): Promise<(typeof incidentChecklistAnswers.$inferSelect)[]> {
  const { entityId, incidentId, answers, createdAt } = overrides;
  if (answers.length === 0) return [];
  return db
    .insert(incidentChecklistAnswers)
    .values(
      answers.map((a, position) => ({
        entityId,
        incidentId,
        position,
        question: a.question,
        contentType: a.contentType ?? 0,
        answer: a.answer ?? null,
        fileId: a.fileId ?? null,
        ...(createdAt ? { createdAt } : {}),
      })),
    )
    .returning();
}

/** Links a stored file (image or document) to an incident. */
export async function createIncidentFile(
  db: Db,
  overrides: { entityId: number; incidentId: number; fileId: string; createdAt?: Date },
): Promise<void> {
  await db.insert(incidentFiles).values(overrides);
}

/** Links a stored file to a comment (an attachment). */
export async function createIncidentCommentFile(
  db: Db,
  overrides: { entityId: number; commentId: number; fileId: string; createdAt?: Date },
): Promise<void> {
  await db.insert(incidentCommentFiles).values(overrides);
}

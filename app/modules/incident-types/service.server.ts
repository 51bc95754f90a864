import { and, eq, inArray, isNull, ne, sql } from "drizzle-orm";
import { assertCan } from "~/core/actor";
import { removeIncidentType } from "~/modules/incidents/writes.server";
import { type Input, resolveInput } from "~/core/input";
import type { ServiceContext } from "~/core/context.server";
import { withTx } from "~/core/unit-of-work.server";
import { insertRecords } from "~/core/bulk-insert.server";
import { fieldRow, fieldValues } from "~/core/fields.server";
import { z } from "zod";
import { IncidentTypeStatus, UserStatus } from "~/db/enums";
import { equipmentTypes, incidentTypeChecklistItems, incidentTypeDefaultAssignees, incidentTypeEquipmentTypes, incidentTypeRooms, incidentTypeRoomTypes, incidentTypes, rooms, roomTypes, users } from "~/db/schema";
import { ValidationError } from "~/lib/errors";
import { logger } from "~/lib/logger.server";
import { parseInput } from "~/lib/validation";
import { treeScope } from "~/modules/facilities/policy.server";
import { getIncidentType, type IncidentTypeDetail, incidentTypeNotFound } from "./queries.server";
import { displayName, type IncidentTypeInput, INCIDENT_TYPE_FIELDS, IncidentTypeSchema, type IncidentTypeValues, NAME_FIELDS, NAME_LANGUAGES, type NameLanguage, type TranslateNamesInput, TranslateNamesSchema } from "./schema";
import { AUDIT } from "~/core/audit-actions";

/**
 * Every write of incident types (SPEC.md sections 3-5): create, update, archive, and the
 * "translate to the others" helper. Shared by the form actions (/add-incident-type,
 * /update-incident-type/{id}) and the REST routes (/api/incident-types). Managers and administrators
 * only; every read and write is filtered by the entity; an audit row is written in the transaction.
 */

// ---------------------------------------------------------------------------
// Translate to the others
// ---------------------------------------------------------------------------

export interface TranslatedNames {
  nameEn: string | null;
  nameFr: string | null;
  nameNl: string | null;
  /** Languages whose name is a copy of the source, waiting for a translation. */
  untranslated: NameLanguage[];
  /** The language translated from. */
  from: NameLanguage;
  /** "service": a translation service filled the texts; "copy": no service; "failed": the service failed, texts copied. */
  outcome: "service" | "copy" | "failed";
  /** The checklist's questions, each with its missing languages filled the same way. */
  checklist: { question: string | null; questionFr: string | null; questionNl: string | null }[];
}

type Texts = Record<NameLanguage, string | null>;

/**
 * Fills the languages of `texts` that are empty from the one given (`from` first, then English, French,
 * Dutch): by the translation service when one is set up (`TRANSLATE_URL`), else copied. Returns the
 * languages copied and how it went.
 */
async function fillLanguages(ctx: ServiceContext, texts: Texts, from: NameLanguage | null | undefined): Promise<{ from: NameLanguage | null; copied: NameLanguage[]; outcome: TranslatedNames["outcome"] }> {
  const source = from && texts[from] ? from : NAME_LANGUAGES.find((l) => texts[l]);
  if (!source) return { from: null, copied: [], outcome: ctx.translator ? "service" : "copy" };
  const copied: NameLanguage[] = [];
  let outcome: TranslatedNames["outcome"] = ctx.translator ? "service" : "copy";
  await Promise.all(
    NAME_LANGUAGES.filter((lang) => !texts[lang]).map(async (lang) => {
      if (ctx.translator) {
        try {
          texts[lang] = await ctx.translator.translate(texts[source]!, source, lang);
          return;
        } catch (error) {
          logger().warn({ err: error, from: source, to: lang }, "translation service failed; the text is copied");
          outcome = "failed";
        }
      }
      texts[lang] = texts[source];
      copied.push(lang);
    }),
  );
  return { from: source, copied: NAME_LANGUAGES.filter((l) => copied.includes(l)), outcome };
}

/**
 * "Translate to the others" (SPEC.md section 5): the missing names, and the missing languages of each
 * checklist question, from the ones given. Nothing is saved.
 */
export async function translateNames(ctx: ServiceContext, rawInput: Input<TranslateNamesInput>): Promise<TranslatedNames> {
  assertCan(ctx.actor, "manage", "incidentType");
  const input = parseInput(TranslateNamesSchema, await resolveInput(rawInput));
  const names: Texts = { en: input.nameEn, fr: input.nameFr, nl: input.nameNl };
  const filled = await fillLanguages(ctx, names, input.from);
  if (!filled.from) throw new ValidationError({ nameEn: ["incidentTypes:validation.nameRequired"] }, "incidentTypes:validation.nameRequired");
  let outcome = filled.outcome;
  const checklist: TranslatedNames["checklist"] = [];
  for (const item of input.checklist) {
    const question: Texts = { en: item.question, fr: item.questionFr, nl: item.questionNl };
    const done = await fillLanguages(ctx, question, filled.from);
    if (done.outcome === "failed") outcome = "failed";
    checklist.push({ question: question.en, questionFr: question.fr, questionNl: question.nl });
  }
  return { nameEn: names.en, nameFr: names.fr, nameNl: names.nl, untranslated: filled.copied, from: filled.from, outcome, checklist };
}

// ---------------------------------------------------------------------------
// Create and update
// ---------------------------------------------------------------------------

/** Refuses links to what is not of the entity (or outside the editor's reach), field by field. */
async function checkReferences(ctx: ServiceContext, input: IncidentTypeValues): Promise<void> {
  const errors: Record<string, string[]> = {};
  const e = ctx.entityId;
  const checks: [string, number[], () => Promise<{ id: number }[]>, string][] = [
    [
      "defaultAssigneeIds",
      input.defaultAssigneeIds,
      () =>
        ctx.db
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.entityId, e), isNull(users.archivedAt), ne(users.status, UserStatus.DISABLED), inArray(users.id, input.defaultAssigneeIds))),
      "incidentTypes:validation.assigneeNotFound",
    ],
    [
      "roomTypeIds",
      input.roomTypeIds,
      () => ctx.db.select({ id: roomTypes.id }).from(roomTypes).where(and(eq(roomTypes.entityId, e), isNull(roomTypes.archivedAt), inArray(roomTypes.id, input.roomTypeIds))),
      "incidentTypes:validation.roomTypeNotFound",
    ],
    [
      "equipmentTypeIds",
      input.equipmentTypeIds,
      () =>
        ctx.db
          .select({ id: equipmentTypes.id })
          .from(equipmentTypes)
          .where(and(eq(equipmentTypes.entityId, e), isNull(equipmentTypes.archivedAt), inArray(equipmentTypes.id, input.equipmentTypeIds))),
      "incidentTypes:validation.equipmentNotFound",
    ],
    [
      "roomIds",
      input.roomIds,
      () =>
        ctx.db
          .select({ id: rooms.id })
          .from(rooms)
          .where(and(eq(rooms.entityId, e), isNull(rooms.archivedAt), inArray(rooms.id, input.roomIds), treeScope(ctx, "room"))),
      "incidentTypes:validation.roomNotFound",
    ],
  ];
  for (const [field, ids, find, message] of checks) {
    if (ids.length > 1000) errors[field] = ["incidentTypes:validation.invalid"];
    else if (ids.length && (await find()).length !== ids.length) errors[field] = [message];
  }
  if (Object.keys(errors).length) throw new ValidationError(errors, "incidentTypes:validation.references", "REFERENCE_NOT_FOUND");
}

/**
 * The type's columns besides its declared fields (schema.ts): its status, and the languages marked
 * "untranslated". A language stays marked only while its name is still a copy of a name in another,
 * unmarked language: editing the copy clears the mark.
 */
function ownColumns(input: IncidentTypeValues) {
  const marked = new Set(input.untranslated);
  const untranslated = NAME_LANGUAGES.filter((lang) => {
    const name = input[NAME_FIELDS[lang]];
    return marked.has(lang) && name !== null && NAME_LANGUAGES.some((other) => other !== lang && !marked.has(other) && input[NAME_FIELDS[other]] === name);
  });
  return { untranslated, status: input.status === 0 ? IncidentTypeStatus.NONE : IncidentTypeStatus.ACTIVE };
}

/** The type's columns for an update and the bulk insert: its declared fields and its own (`ownColumns`). */
function columnsOf(input: IncidentTypeValues) {
  return { ...fieldValues(incidentTypes, INCIDENT_TYPE_FIELDS, input), ...ownColumns(input) };
}

/** Replaces the type's default assignees, room types, equipment, rooms and checklist. */
async function writeParts(ctx: ServiceContext, id: number, input: IncidentTypeValues): Promise<void> {
  const e = ctx.entityId;
  // One statement after the other: a transaction's connection runs one query at a time.
  await ctx.db.delete(incidentTypeDefaultAssignees).where(and(eq(incidentTypeDefaultAssignees.incidentTypeId, id), eq(incidentTypeDefaultAssignees.entityId, e)));
  await ctx.db.delete(incidentTypeRoomTypes).where(and(eq(incidentTypeRoomTypes.incidentTypeId, id), eq(incidentTypeRoomTypes.entityId, e)));
  await ctx.db.delete(incidentTypeEquipmentTypes).where(and(eq(incidentTypeEquipmentTypes.incidentTypeId, id), eq(incidentTypeEquipmentTypes.entityId, e)));
  await ctx.db.delete(incidentTypeChecklistItems).where(and(eq(incidentTypeChecklistItems.incidentTypeId, id), eq(incidentTypeChecklistItems.entityId, e)));
  // Rooms outside the editor's reach keep their link: the editor neither sees nor changes them.
  const reach = treeScope(ctx, "room");
  await ctx.db
    .delete(incidentTypeRooms)
    .where(
      and(
        eq(incidentTypeRooms.incidentTypeId, id),
        eq(incidentTypeRooms.entityId, e),
        reach ? sql`${incidentTypeRooms.roomId} in (select ${rooms.id} from ${rooms} where ${rooms.entityId} = ${e} and ${reach})` : undefined,
      ),
    );
  const base = { entityId: e, incidentTypeId: id };
  if (input.defaultAssigneeIds.length) await ctx.db.insert(incidentTypeDefaultAssignees).values(input.defaultAssigneeIds.map((userId) => ({ ...base, userId })));
  if (input.roomTypeIds.length) await ctx.db.insert(incidentTypeRoomTypes).values(input.roomTypeIds.map((roomTypeId) => ({ ...base, roomTypeId })));
  if (input.equipmentTypeIds.length) await ctx.db.insert(incidentTypeEquipmentTypes).values(input.equipmentTypeIds.map((equipmentTypeId) => ({ ...base, equipmentTypeId })));
  if (input.roomIds.length) await ctx.db.insert(incidentTypeRooms).values(input.roomIds.map((roomId) => ({ ...base, roomId }))).onConflictDoNothing();
  if (input.checklist.length) {
    await ctx.db.insert(incidentTypeChecklistItems).values(
      input.checklist.map((item, position) => ({
        ...base,
        position,
        question: item.question,
        questionFr: item.questionFr,
        questionNl: item.questionNl,
        tutorialLink: item.tutorialLink,
        message: item.message,
        contentType: item.contentType,
      })),
    );
  }
}

export async function createIncidentType(ctx: ServiceContext, rawInput: Input<IncidentTypeInput>): Promise<IncidentTypeDetail> {
  assertCan(ctx.actor, "manage", "incidentType");
  const input = parseInput(IncidentTypeSchema, await resolveInput(rawInput));
  return withTx(ctx, async (txCtx, effects) => {
    await checkReferences(txCtx, input);
    const [row] = await txCtx.db
      .insert(incidentTypes)
      .values(fieldRow(incidentTypes, INCIDENT_TYPE_FIELDS, input, { entityId: ctx.entityId, ...ownColumns(input) }))
      .returning({ id: incidentTypes.id });
    await writeParts(txCtx, row.id, input);
    await effects.audit({ action: AUDIT.incidentType.create, recordType: "incidentType", recordId: row.id });
    return getIncidentType(txCtx, row.id);
  });
}

async function lockIncidentType(ctx: ServiceContext, id: number) {
  const [row] = await ctx.db
    .select()
    .from(incidentTypes)
    .where(and(eq(incidentTypes.id, id), eq(incidentTypes.entityId, ctx.entityId), isNull(incidentTypes.archivedAt)))
    .for("update");
  if (!row) throw incidentTypeNotFound();
  return row;
}

export async function updateIncidentType(ctx: ServiceContext, id: number, rawInput: Input<IncidentTypeInput>): Promise<IncidentTypeDetail> {
  assertCan(ctx.actor, "manage", "incidentType");
  const input = parseInput(IncidentTypeSchema, await resolveInput(rawInput));
  return withTx(ctx, async (txCtx, effects) => {
    await lockIncidentType(txCtx, id);
    await checkReferences(txCtx, input);
    await txCtx.db
      .update(incidentTypes)
      .set({ ...columnsOf(input), updatedAt: new Date() })
      .where(and(eq(incidentTypes.id, id), eq(incidentTypes.entityId, ctx.entityId)));
    await writeParts(txCtx, id, input);
    await effects.audit({ action: AUDIT.incidentType.update, recordType: "incidentType", recordId: id });
    return getIncidentType(txCtx, id);
  });
}

// ---------------------------------------------------------------------------
// Archive
// ---------------------------------------------------------------------------

export interface ArchiveIncidentTypeResult {
  /** Pending and In Progress incidents the type was removed from. */
  incidentsUpdated: number;
}

/**
 * Archives an incident type (SPEC.md section 4), in one transaction: it disappears from the lists and
 * pickers and is removed from Pending and In Progress incidents, each with an event (type 9, old value
 * the type); Done and Rejected incidents keep it for history and statistics. `confirmName`, when given
 * (the dialog), must be one of the type's names.
 */
export async function archiveIncidentType(ctx: ServiceContext, id: number, confirm?: { confirmName?: unknown }): Promise<ArchiveIncidentTypeResult> {
  assertCan(ctx.actor, "manage", "incidentType");
  return withTx(ctx, async (txCtx, effects) => {
    const current = await lockIncidentType(txCtx, id);
    if (confirm !== undefined) {
      const typed = typeof confirm.confirmName === "string" ? confirm.confirmName.trim() : "";
      const names = [current.nameEn, current.nameFr, current.nameNl].filter((n): n is string => Boolean(n)).map((n) => n.trim());
      if (!names.includes(typed)) throw new ValidationError({ confirmName: ["common:archive.wrongName"] }, "common:archive.wrongName", "WRONG_NAME");
    }
    const e = ctx.entityId;
    const incidentsUpdated = await removeIncidentType(txCtx, effects, { id, name: displayName(current, "en") });
    const now = new Date();
    await txCtx.db
      .update(incidentTypes)
      .set({ status: IncidentTypeStatus.ARCHIVED, archivedAt: now, updatedAt: now })
      .where(and(eq(incidentTypes.id, id), eq(incidentTypes.entityId, e)));
    await effects.audit({ action: AUDIT.incidentType.archive, recordType: "incidentType", recordId: id, details: { incidentsUpdated } });
    return { incidentsUpdated };
  });
}

/**
 * Archiving a user (SPEC.md section 4): where they are a default assignee of an incident type, `to`
 * takes their place (once), or the place is removed (null). Inside the caller's unit of work.
 */
export async function reassignUser(ctx: ServiceContext, fromUserId: number, toUserId: number | null): Promise<void> {
  await ctx.db.execute(sql`
    with gone as (
      delete from incident_type_default_assignees where entity_id = ${ctx.entityId} and user_id = ${fromUserId}
      returning incident_type_id
    )
    insert into incident_type_default_assignees (entity_id, incident_type_id, user_id)
    select ${ctx.entityId}, g.incident_type_id, ${toUserId}::int from gone g
    where ${toUserId}::int is not null
    on conflict do nothing`);
}

// ---------------------------------------------------------------------------
// Bulk creation (imports, decision 054)
// ---------------------------------------------------------------------------

const BulkIncidentTypeSchema = z.array(IncidentTypeSchema).max(100_000);

/**
 * Creates many incident types in one statement (an import), active, with their audit rows; an import
 * gives them names, a default priority and "reportable everywhere" only (no assignees, places or
 * checklist). Returns the new ids.
 */
export async function createIncidentTypesBulk(
  ctx: ServiceContext,
  rawRows: Input<IncidentTypeInput[]>,
  options: { details?: Record<string, unknown> } = {},
): Promise<number[]> {
  assertCan(ctx.actor, "manage", "incidentType");
  const rows = parseInput(BulkIncidentTypeSchema, await resolveInput(rawRows));
  if (rows.some((r) => r.defaultAssigneeIds.length || r.roomTypeIds.length || r.equipmentTypeIds.length || r.roomIds.length || r.checklist.length)) {
    throw new ValidationError({ roomIds: ["incidentTypes:validation.invalid"] });
  }
  return withTx(ctx, (txCtx) =>
    insertRecords(txCtx, {
      table: incidentTypes,
      rows: rows.map((r) => columnsOf(r)),
      audit: { action: AUDIT.incidentType.create, recordType: "incidentType", details: options.details },
    }),
  );
}

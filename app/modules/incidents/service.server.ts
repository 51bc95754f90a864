import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import { assertCan, personWhoCan } from "~/core/actor";
import { AUDIT } from "~/core/audit-actions";
import type { ServiceContext } from "~/core/context.server";
import { type Input, resolveInput } from "~/core/input";
import { type Effects, withTx } from "~/core/unit-of-work.server";
import { type IncidentPriority, IncidentEventType, IncidentStatus } from "~/db/enums";
import { type Incident, incidentCommentFiles, incidentComments, incidentFiles, incidents, users } from "~/db/schema";
import { ForbiddenError, ValidationError } from "~/lib/errors";
import { MAX_TAGS, TAG_TOO_MANY } from "~/lib/schema-helpers";
import { parseInput } from "~/lib/validation";
import { prepareImages } from "~/modules/files/images.server";
import { followIncidentClocks } from "~/modules/service-levels/clocks.server";
import { type FilesContext, type Upload, uploadsOf } from "~/modules/files/uploads.server";
import { incidentAssigned, incidentCommented, incidentDescriptionChanged, incidentDowntimeChanged, incidentMarkedDuplicate, incidentPriorityChanged, incidentStatusChanged, incidentTagsChanged, incidentTitleChanged } from "./changes.server";
import { MAX_ATTACHMENTS } from "./constants";
import { recordIncidentEvent } from "./writes.server";
import { assigneeCandidates, commentNotFound, findIncidentByShortId, findIncidentInReach, incidentNotFound } from "./queries.server";
import { AssignSchema, type AssignInput, BulkChangeSchema, type BulkChangeInput, CommentSchema, type CommentInput, DescriptionSchema, type DescriptionInput, DowntimeSchema, type DowntimeInput, DuplicateSchema, type DuplicateInput, SetPrioritySchema, type SetPriorityInput, SetStatusSchema, type SetStatusInput, TagSchema, type TagInput, TitleSchema, type TitleInput } from "./schema";

/**
 * Every write of an incident (SPEC.md sections 3-5), one verb each, shared by the form
 * actions (/incidents, /incident/{id}) and the REST routes (/api/incidents). Whoever reaches an incident
 * (`incidentReach`: administrators all of their entity; managers and technicians their facilities and
 * buildings, and what is assigned to them) may handle it; anything else is "Incident not found".
 *
 * Each verb locks the incident row, changes it, writes its event (types 0-8) in the same transaction
 * (the open-incident and per-status counters follow by trigger), and emits its change
 * (./changes.server.ts): the dispatcher turns it into notifications, live events and reporters' mails.
 * A change to the value it already has writes nothing and records no event. What other areas write to
 * incidents goes through ./writes.server.ts, the same way.
 */

export type IncidentChange = Pick<Incident, "id" | "shortId" | "status" | "priority" | "assigneeId" | "title" | "description" | "tags">;

const change = (row: Incident): IncidentChange => ({
  id: row.id,
  shortId: row.shortId,
  status: row.status,
  priority: row.priority,
  assigneeId: row.assigneeId,
  title: row.title,
  description: row.description,
  tags: row.tags ?? [],
});

/** Runs `work` on the locked incident in reach, in one unit of work. */
function onIncident<T>(ctx: ServiceContext, id: number, work: (tx: ServiceContext, incident: Incident, effects: Effects) => Promise<T>): Promise<T> {
  assertCan(ctx.actor, "handle", "incident");
  return withTx(ctx, async (tx, effects) => {
    const incident = await findIncidentInReach(tx, id, { lock: true });
    return work(tx, incident, effects);
  });
}

async function touch(ctx: ServiceContext, id: number, values: Partial<typeof incidents.$inferInsert>): Promise<Incident> {
  const [row] = await ctx.db
    .update(incidents)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(incidents.id, id), eq(incidents.entityId, ctx.entityId)))
    .returning();
  return row;
}

// ---------------------------------------------------------------------------
// Status, priority, assignee
// ---------------------------------------------------------------------------

/** Moves an incident to another status (table, board, dialog, detail view): event 2. */
export async function setIncidentStatus(ctx: ServiceContext, id: number, rawInput: Input<SetStatusInput>): Promise<IncidentChange> {
  assertCan(ctx.actor, "handle", "incident");
  const { status } = parseInput(SetStatusSchema, await resolveInput(rawInput));
  return onIncident(ctx, id, async (tx, incident, effects) => {
    if (incident.status === status) return change(incident);
    const doneAt = status === IncidentStatus.DONE ? new Date() : status === IncidentStatus.ARCHIVED ? (incident.doneAt ?? null) : null;
    const row = await touch(tx, incident.id, { status: status as IncidentStatus, doneAt });
    await followIncidentClocks(tx, incident, row, status === IncidentStatus.DONE && doneAt ? doneAt : row.updatedAt);
    await recordIncidentEvent(tx, incident.id, IncidentEventType.STATUS_UPDATE, incident.status, status);
    await effects.emit(incidentStatusChanged, { incidentId: row.id, shortId: row.shortId, assigneeId: row.assigneeId, from: incident.status, to: status });
    return change(row);
  });
}

/** Sets the priority, or "Not Selected" (null): event 3. */
export async function setIncidentPriority(ctx: ServiceContext, id: number, rawInput: Input<SetPriorityInput>): Promise<IncidentChange> {
  assertCan(ctx.actor, "handle", "incident");
  const { priority } = parseInput(SetPrioritySchema, await resolveInput(rawInput));
  return onIncident(ctx, id, async (tx, incident, effects) => {
    if (incident.priority === priority) return change(incident);
    const row = await touch(tx, incident.id, { priority: priority as IncidentPriority });
    await followIncidentClocks(tx, incident, row);
    await recordIncidentEvent(tx, incident.id, IncidentEventType.PRIORITY_UPDATE, incident.priority, priority);
    await effects.emit(incidentPriorityChanged, { incidentId: row.id, shortId: row.shortId, from: incident.priority, to: priority });
    return change(row);
  });
}

async function personOf(ctx: ServiceContext, userId: number | null): Promise<{ id: number; name: string } | null> {
  if (!userId) return null;
  const [u] = await ctx.db
    .select({ id: users.id, name: users.name, surname: users.surname })
    .from(users)
    .where(and(eq(users.id, userId), eq(users.entityId, ctx.entityId)));
  return u ? { id: u.id, name: `${u.name} ${u.surname}`.trim() } : { id: userId, name: "" };
}

/**
 * Assigns the incident to a user who can reach its location (active, of the entity: administrators,
 * or managers and technicians linked to its facility or building), or unassigns it (null): event 1
 * with the old and new `{ id, name }`.
 */
export async function assignIncident(ctx: ServiceContext, id: number, rawInput: Input<AssignInput>): Promise<IncidentChange> {
  assertCan(ctx.actor, "handle", "incident");
  const { assigneeId } = parseInput(AssignSchema, await resolveInput(rawInput));
  return onIncident(ctx, id, async (tx, incident, effects) => {
    if (incident.assigneeId === assigneeId) return change(incident);
    if (assigneeId !== null) {
      const [candidate] = await tx.db
        .select({ id: users.id })
        .from(users)
        .where(and(eq(users.id, assigneeId), eq(users.entityId, tx.entityId), assigneeCandidates(tx, incident.roomId)));
      if (!candidate) throw new ValidationError({ assigneeId: ["incidents:validation.assigneeOutOfReach"] }, "incidents:validation.assigneeOutOfReach", "ASSIGNEE_NOT_ALLOWED");
    }
    const row = await touch(tx, incident.id, { assigneeId });
    await followIncidentClocks(tx, incident, row);
    const [before, after] = [await personOf(tx, incident.assigneeId), await personOf(tx, assigneeId)];
    await recordIncidentEvent(tx, incident.id, IncidentEventType.ASSIGNED, before, after);
    // The new assignee hears of it; the previous one, that it was taken off them.
    await effects.emit(incidentAssigned, { incidentId: row.id, shortId: row.shortId, from: incident.assigneeId, to: assigneeId });
    return change(row);
  });
}

/**
 * Marks the incident's equipment out of service (its downtime runs from the report to Done) or back in
 * service, and optionally sets the downtime by hand (decision 066). Only an incident on a piece of
 * equipment has one. Audited; no incident event (SPEC.md's event types do not name it).
 */
export async function setIncidentDowntime(ctx: ServiceContext, id: number, rawInput: Input<DowntimeInput>): Promise<Pick<Incident, "id" | "shortId" | "equipmentDown" | "downtimeMinutes">> {
  const answer = (row: Incident) => ({ id: row.id, shortId: row.shortId, equipmentDown: row.equipmentDown, downtimeMinutes: row.downtimeMinutes });
  assertCan(ctx.actor, "handle", "incident");
  const { equipmentDown, downtimeMinutes } = parseInput(DowntimeSchema, await resolveInput(rawInput));
  return onIncident(ctx, id, async (tx, incident, effects) => {
    if (incident.equipmentItemId === null) {
      throw new ValidationError({ equipmentDown: ["incidents:validation.downtimeNoEquipment"] }, "incidents:validation.downtimeNoEquipment", "INCIDENT_HAS_NO_EQUIPMENT");
    }
    const minutes = equipmentDown ? downtimeMinutes : null;
    if (incident.equipmentDown === equipmentDown && incident.downtimeMinutes === minutes) return answer(incident);
    const row = await touch(tx, incident.id, { equipmentDown, downtimeMinutes: minutes });
    await effects.audit({
      action: AUDIT.incident.setDowntime,
      recordType: "incident",
      recordId: row.id,
      details: { shortId: row.shortId, equipmentDown, downtimeMinutes: minutes },
    });
    await effects.emit(incidentDowntimeChanged, { incidentId: row.id, shortId: row.shortId, equipmentDown, downtimeMinutes: minutes });
    return answer(row);
  });
}

// ---------------------------------------------------------------------------
// Tags, title, description
// ---------------------------------------------------------------------------

/** Adds a tag (SPEC.md section 5: not empty, at most 3, at most 20 characters): event 5. */
export async function addIncidentTag(ctx: ServiceContext, id: number, rawInput: Input<TagInput>): Promise<IncidentChange> {
  assertCan(ctx.actor, "handle", "incident");
  const { tag } = parseInput(TagSchema, await resolveInput(rawInput));
  return onIncident(ctx, id, async (tx, incident, effects) => {
    const tags = incident.tags ?? [];
    if (tags.some((t) => t.toLowerCase() === tag.toLowerCase())) return change(incident);
    if (tags.length >= MAX_TAGS) throw new ValidationError({ tag: [TAG_TOO_MANY] }, TAG_TOO_MANY, "TOO_MANY_TAGS");
    const row = await touch(tx, incident.id, { tags: [...tags, tag] });
    await recordIncidentEvent(tx, incident.id, IncidentEventType.ADD_TAG, null, tag);
    await effects.emit(incidentTagsChanged, { incidentId: row.id, shortId: row.shortId, added: tag });
    return change(row);
  });
}

/** Removes a tag (matched ignoring case): event 6. Removing a tag it does not carry changes nothing. */
export async function removeIncidentTag(ctx: ServiceContext, id: number, rawInput: Input<{ tag: unknown }>): Promise<IncidentChange> {
  assertCan(ctx.actor, "handle", "incident");
  const raw = (await resolveInput(rawInput)) as { tag?: unknown } | null;
  const tag = typeof raw?.tag === "string" ? raw.tag.trim() : "";
  return onIncident(ctx, id, async (tx, incident, effects) => {
    const tags = incident.tags ?? [];
    const removed = tags.find((t) => t.toLowerCase() === tag.toLowerCase());
    if (!removed) return change(incident);
    const row = await touch(tx, incident.id, { tags: tags.filter((t) => t !== removed) });
    await recordIncidentEvent(tx, incident.id, IncidentEventType.DELETE_TAG, removed, null);
    await effects.emit(incidentTagsChanged, { incidentId: row.id, shortId: row.shortId, removed });
    return change(row);
  });
}

/** Changes the title (required, at most 200 characters): event 7. */
export async function updateIncidentTitle(ctx: ServiceContext, id: number, rawInput: Input<TitleInput>): Promise<IncidentChange> {
  assertCan(ctx.actor, "handle", "incident");
  const { title } = parseInput(TitleSchema, await resolveInput(rawInput));
  return onIncident(ctx, id, async (tx, incident, effects) => {
    if (incident.title === title) return change(incident);
    const row = await touch(tx, incident.id, { title });
    await recordIncidentEvent(tx, incident.id, IncidentEventType.TITLE_UPDATE, incident.title, title);
    await effects.emit(incidentTitleChanged, { incidentId: row.id, shortId: row.shortId });
    return change(row);
  });
}

/** Changes the description (may be emptied): event 8. */
export async function updateIncidentDescription(ctx: ServiceContext, id: number, rawInput: Input<DescriptionInput>): Promise<IncidentChange> {
  assertCan(ctx.actor, "handle", "incident");
  const { description } = parseInput(DescriptionSchema, await resolveInput(rawInput));
  return onIncident(ctx, id, async (tx, incident, effects) => {
    if ((incident.description ?? null) === description) return change(incident);
    const row = await touch(tx, incident.id, { description });
    await recordIncidentEvent(tx, incident.id, IncidentEventType.DESCRIPTION_UPDATE, incident.description, description);
    await effects.emit(incidentDescriptionChanged, { incidentId: row.id, shortId: row.shortId });
    return change(row);
  });
}

// ---------------------------------------------------------------------------
// Duplicates
// ---------------------------------------------------------------------------

/**
 * Marks incident `id` as a duplicate of the incident with short id `duplicateOf` (decision 025): its
 * occurrences add to the kept incident's, its last occurrence counts if later, its reporters join the
 * kept one's; it is closed as Rejected. Both get event 4 (the duplicate's new value is the kept
 * incident, the kept incident's the folded one); the closing is event 2. Refused: itself, an incident
 * already folded into another, or one that is itself a duplicate.
 */
export async function markIncidentDuplicate(ctx: ServiceContext, id: number, rawInput: Input<DuplicateInput>): Promise<{ duplicate: IncidentChange; kept: IncidentChange }> {
  assertCan(ctx.actor, "handle", "incident");
  const { duplicateOf } = parseInput(DuplicateSchema, await resolveInput(rawInput));
  return withTx(ctx, async (tx, effects) => {
    const dupe = await findIncidentInReach(tx, id);
    const fail = (key: string, code: string): never => {
      throw new ValidationError({ duplicateOf: [key] }, key, code);
    };
    let keptId: number;
    try {
      keptId = (await findIncidentByShortId(tx, duplicateOf)).id;
    } catch {
      return fail("incidents:validation.duplicateNotFound", "DUPLICATE_NOT_FOUND");
    }
    if (keptId === dupe.id) fail("incidents:validation.duplicateSelf", "DUPLICATE_SELF");
    // Both rows locked, in id order (two opposite merges wait instead of deadlocking).
    const [first, second] = keptId < dupe.id ? [keptId, dupe.id] : [dupe.id, keptId];
    const a = await findIncidentInReach(tx, first, { lock: true });
    const b = await findIncidentInReach(tx, second, { lock: true });
    const duplicate = a.id === dupe.id ? a : b;
    const kept = a.id === dupe.id ? b : a;
    if (duplicate.duplicateOfId) fail("incidents:validation.alreadyDuplicate", "ALREADY_DUPLICATE");
    if (kept.duplicateOfId) fail("incidents:validation.duplicateIsDuplicate", "DUPLICATE_OF_DUPLICATE");

    const lastOccurrenceAt = duplicate.lastOccurrenceAt > kept.lastOccurrenceAt ? duplicate.lastOccurrenceAt : kept.lastOccurrenceAt;
    const keptRow = await touch(tx, kept.id, { occurrences: kept.occurrences + duplicate.occurrences, lastOccurrenceAt });
    // The reporters move to the kept incident (with their language and status page link), but for
    // those it already has.
    // tenant-scope: scoped by the kept incident (read in tx.entityId); the updated reporters compare r.entity_id
    await tx.db.execute(sql`
      update incident_reporters r set incident_id = ${kept.id}
      where r.incident_id = ${duplicate.id} and r.entity_id = ${tx.entityId}
        and not exists (select 1 from incident_reporters k where k.incident_id = ${kept.id} and lower(k.email) = lower(r.email))`);
    const closed = duplicate.status === IncidentStatus.DONE || duplicate.status === IncidentStatus.REJECTED || duplicate.status === IncidentStatus.ARCHIVED;
    const status = closed ? duplicate.status : IncidentStatus.REJECTED;
    const dupeRow = await touch(tx, duplicate.id, { duplicateOfId: kept.id, status });
    await followIncidentClocks(tx, duplicate, dupeRow);
    await recordIncidentEvent(tx, duplicate.id, IncidentEventType.DUPLICATE, null, { id: kept.id, shortId: kept.shortId });
    // Its reporters now follow the kept incident: no "rejected" mail for them.
    if (status !== duplicate.status) {
      await recordIncidentEvent(tx, duplicate.id, IncidentEventType.STATUS_UPDATE, duplicate.status, status);
      await effects.emit(incidentStatusChanged, { incidentId: dupeRow.id, shortId: dupeRow.shortId, assigneeId: dupeRow.assigneeId, from: duplicate.status, to: status });
    }
    await recordIncidentEvent(tx, kept.id, IncidentEventType.DUPLICATE, null, {
      id: duplicate.id,
      shortId: duplicate.shortId,
      occurrences: duplicate.occurrences,
    });
    await effects.emit(incidentMarkedDuplicate, { incidentId: dupeRow.id, shortId: dupeRow.shortId, keptId: kept.id });
    return { duplicate: change(dupeRow), kept: change(keptRow) };
  });
}

// ---------------------------------------------------------------------------
// Several at once
// ---------------------------------------------------------------------------

/**
 * One change (status, priority or assignee) to several incidents of the table's selection, all or
 * nothing: every incident must be in reach and the change valid for each, otherwise nothing changes.
 * Each incident gets its own event, as if changed one by one.
 */
export async function bulkChangeIncidents(ctx: ServiceContext, rawInput: Input<BulkChangeInput>): Promise<{ changed: number }> {
  assertCan(ctx.actor, "handle", "incident");
  const input = parseInput(BulkChangeSchema, await resolveInput(rawInput));
  return withTx(ctx, async (tx) => {
    // Locked in id order up front, so two overlapping bulk changes wait for each other.
    const ids = [...input.ids].sort((x, y) => x - y);
    const found = await tx.db
      .select({ id: incidents.id })
      .from(incidents)
      .where(and(inArray(incidents.id, ids), eq(incidents.entityId, tx.entityId), isNull(incidents.archivedAt)))
      .orderBy(incidents.id)
      .for("update");
    if (found.length !== ids.length) throw incidentNotFound();
    let changed = 0;
    for (const id of ids) {
      const before = await findIncidentInReach(tx, id);
      const after =
        input.change === "status"
          ? await setIncidentStatus(tx, id, { status: input.value })
          : input.change === "priority"
            ? await setIncidentPriority(tx, id, { priority: input.value })
            : await assignIncident(tx, id, { assigneeId: input.value });
      if (before.status !== after.status || before.priority !== after.priority || before.assigneeId !== after.assigneeId) changed++;
    }
    return { changed };
  });
}

// ---------------------------------------------------------------------------
// Comments and files
// ---------------------------------------------------------------------------

export interface CommentWrite extends CommentInput {
  files?: Upload[];
}

function checkAttachmentCount(files: Upload[] | undefined, field: string) {
  if ((files?.length ?? 0) > MAX_ATTACHMENTS) throw new ValidationError({ [field]: ["incidents:validation.tooManyFiles"] }, "incidents:validation.tooManyFiles", "TOO_MANY_FILES");
}

/**
 * The images among the attachments scaled down (at most 2048 px, upright, no metadata), other files
 * unchanged, before the verb's transaction; only for an incident the actor reaches (no decoding for
 * anyone else).
 */
async function scaledImages(ctx: FilesContext, incidentId: number, files: Upload[] | undefined): Promise<Upload[]> {
  if (!files?.length) return [];
  await findIncidentInReach(ctx, incidentId);
  return prepareImages(files, "files", { maxBytes: ctx.files.maxBytes });
}

/** Posts a comment (text required) with its attachments (images or documents). */
export async function postIncidentComment(ctx: FilesContext, incidentId: number, rawInput: Input<CommentWrite>): Promise<{ id: number }> {
  const actorId = personWhoCan(ctx.actor, "comment", "incident").id;
  const raw = await resolveInput(rawInput);
  const { body } = parseInput(CommentSchema, raw);
  const files = (raw as CommentWrite).files?.filter((f) => f.bytes.byteLength > 0 || f.name);
  checkAttachmentCount(files, "files");
  const scaled = await scaledImages(ctx, incidentId, files);
  return withTx(ctx, async (tx, effects) => {
    const incident = await findIncidentInReach(tx, incidentId, { lock: true });
    const uploads = uploadsOf(tx, effects);
    const [comment] = await tx.db
      .insert(incidentComments)
      .values({ entityId: tx.entityId, incidentId: incident.id, authorId: actorId, body })
      .returning({ id: incidentComments.id });
    for (const file of scaled) {
      const fileId = await uploads.add(file, { kind: "document", field: "files" });
      await tx.db.insert(incidentCommentFiles).values({ entityId: tx.entityId, commentId: comment.id, fileId });
    }
    await touch(tx, incident.id, {});
    await effects.emit(incidentCommented, { incidentId: incident.id, shortId: incident.shortId, assigneeId: incident.assigneeId, commentId: comment.id });
    return { id: comment.id };
  });
}

async function ownComment(ctx: ServiceContext, incidentId: number, commentId: number) {
  const incident = await findIncidentInReach(ctx, incidentId);
  if (!Number.isSafeInteger(commentId) || commentId <= 0 || commentId > 2_147_483_647) throw commentNotFound();
  const [comment] = await ctx.db
    .select()
    .from(incidentComments)
    .where(
      and(
        eq(incidentComments.id, commentId),
        eq(incidentComments.incidentId, incident.id),
        eq(incidentComments.entityId, ctx.entityId),
        isNull(incidentComments.deletedAt),
      ),
    )
    .for("update");
  if (!comment) throw commentNotFound();
  if (comment.authorId !== ctx.actor?.id) throw new ForbiddenError("incidents:errors.notYourComment", "NOT_YOUR_COMMENT");
  return { incident, comment };
}

/** Edits one's own comment; the "edited" information (when, by whom) is kept. */
export async function updateIncidentComment(ctx: ServiceContext, incidentId: number, commentId: number, rawInput: Input<CommentInput>): Promise<{ id: number }> {
  assertCan(ctx.actor, "handle", "incident");
  const { body } = parseInput(CommentSchema, await resolveInput(rawInput));
  return withTx(ctx, async (tx) => {
    const { comment } = await ownComment(tx, incidentId, commentId);
    if (comment.body === body) return { id: comment.id };
    await tx.db
      .update(incidentComments)
      .set({ body, editedAt: new Date(), editedById: tx.actor!.id })
      .where(and(eq(incidentComments.id, comment.id), eq(incidentComments.entityId, tx.entityId)));
    return { id: comment.id };
  });
}

/** Deletes one's own comment; its attachments are removed after commit. */
export async function deleteIncidentComment(ctx: FilesContext, incidentId: number, commentId: number): Promise<void> {
  assertCan(ctx.actor, "handle", "incident");
  await withTx(ctx, async (tx, effects) => {
    const { comment } = await ownComment(tx, incidentId, commentId);
    await tx.db
      .update(incidentComments)
      .set({ deletedAt: new Date() })
      .where(and(eq(incidentComments.id, comment.id), eq(incidentComments.entityId, tx.entityId)));
    const files = await tx.db
      .select({ fileId: incidentCommentFiles.fileId })
      .from(incidentCommentFiles)
      .where(and(eq(incidentCommentFiles.commentId, comment.id), eq(incidentCommentFiles.entityId, tx.entityId)));
    const uploads = uploadsOf(tx, effects);
    for (const f of files) uploads.retire(f.fileId);
  });
}

/** Adds images or documents to the incident itself. */
export async function addIncidentFiles(ctx: FilesContext, incidentId: number, rawInput: Input<{ files?: Upload[] }>): Promise<{ ids: string[] }> {
  assertCan(ctx.actor, "handle", "incident");
  const raw = (await resolveInput(rawInput)) as { files?: Upload[] };
  const files = (raw.files ?? []).filter((f) => f.bytes.byteLength > 0 || f.name);
  if (files.length === 0) throw new ValidationError({ files: ["incidents:validation.fileRequired"] }, "incidents:validation.fileRequired", "FILE_REQUIRED");
  checkAttachmentCount(files, "files");
  const scaled = await scaledImages(ctx, incidentId, files);
  return withTx(ctx, async (tx, effects) => {
    const incident = await findIncidentInReach(tx, incidentId, { lock: true });
    const uploads = uploadsOf(tx, effects);
    const ids: string[] = [];
    for (const file of scaled) {
      const fileId = await uploads.add(file, { kind: "document", field: "files" });
      await tx.db.insert(incidentFiles).values({ entityId: tx.entityId, incidentId: incident.id, fileId });
      ids.push(fileId);
    }
    await touch(tx, incident.id, {});
    return { ids };
  });
}

/** Removes a file of the incident (not a comment's attachment). */
export async function removeIncidentFile(ctx: FilesContext, incidentId: number, fileId: string): Promise<void> {
  assertCan(ctx.actor, "handle", "incident");
  await withTx(ctx, async (tx, effects) => {
    const incident = await findIncidentInReach(tx, incidentId, { lock: true });
    const valid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(fileId);
    const [link] = valid
      ? await tx.db
          .delete(incidentFiles)
          .where(and(eq(incidentFiles.incidentId, incident.id), eq(incidentFiles.fileId, fileId), eq(incidentFiles.entityId, tx.entityId)))
          .returning({ fileId: incidentFiles.fileId })
      : [];
    if (!link) throw new ValidationError({ fileId: ["errors.file.deleteFailed"] }, "errors.file.deleteFailed", "FILE_NOT_FOUND");
    uploadsOf(tx, effects).retire(link.fileId);
    await touch(tx, incident.id, {});
  });
}


import { and, asc, eq, inArray, isNull, sql } from "drizzle-orm";
import { assertCan } from "~/core/actor";
import type { ServiceContext } from "~/core/context.server";
import { AUDIT } from "~/core/audit-actions";
import { type Input, resolveInput } from "~/core/input";
import { type Effects, withTx } from "~/core/unit-of-work.server";
import { ChecklistContentType, InspectionCheckKind, type Priority } from "~/db/enums";
import { incidents, incidentTypes, maintenanceTypeChecks, plannedMaintenances, rooms, type Task, taskCheckAnswers, tasks, users } from "~/db/schema";
import { NotFoundError, ValidationError } from "~/lib/errors";
import { parseInput } from "~/lib/validation";
import { prepareImage } from "~/modules/files/images.server";
import { type FilesContext, type Upload, uploadsOf } from "~/modules/files/uploads.server";
import { attachToIncident, createReportedIncident, type IncidentAnswer } from "~/modules/incidents/writes.server";
import { incidentReach } from "~/modules/facilities/policy.server";
import { assigneeCandidates } from "~/modules/incidents/queries.server";
import { incidentTypeName } from "~/modules/incident-types/queries.server";
import { answerField, answerPasses, CHECK_ANSWER_MAX, type CheckToAnswer, type InspectionCheck, type TaskAnswer, type CheckInput, CheckSchema, type ChecklistInput, ChecklistSchema, type CheckValues, MAX_CHECKS, photoField, readNumber } from "./inspection-schema";
import { lockMaintenanceType } from "./service.server";

/**
 * Inspections (issue 63, decision 051): a maintenance type's checklist, edited one check at a time by
 * managers (`maintenance: manage`), and a task's answers to it, written by `completeTask`
 * (./tasks.server.ts) in its unit of work.
 *
 * A failed pass/fail check or a number outside its range opens one incident on the task's room or
 * equipment item, of the check's incident type and priority, carrying every answer of the task and the
 * check's photo, assigned to the person who signs the inspection off when they may handle incidents of
 * that room (else unassigned); the answer keeps the incident's id (the link both ways). One answer per
 * task and check (a unique key): the task's lock makes a second "done" a no-op, and the key makes a check that already
 * opened its incident open none again (a task reopened and done again updates its answers only).
 */

export interface CheckRow extends InspectionCheck {
  kind: InspectionCheckKind;
  priority: Priority;
}

/** A check's label in `locale`, then in the others. */
export function checkLabel(locale: string, row: Pick<CheckRow, "label" | "labelFr" | "labelNl">): string {
  const order = locale.startsWith("fr") ? [row.labelFr, row.label, row.labelNl] : locale.startsWith("nl") ? [row.labelNl, row.label, row.labelFr] : [row.label, row.labelFr, row.labelNl];
  return order.find((v) => v) ?? "";
}

const checkColumns = {
  id: maintenanceTypeChecks.id,
  position: maintenanceTypeChecks.position,
  kind: maintenanceTypeChecks.kind,
  label: maintenanceTypeChecks.label,
  labelFr: maintenanceTypeChecks.labelFr,
  labelNl: maintenanceTypeChecks.labelNl,
  minValue: maintenanceTypeChecks.minValue,
  maxValue: maintenanceTypeChecks.maxValue,
  photoRequired: maintenanceTypeChecks.photoRequired,
  incidentTypeId: maintenanceTypeChecks.incidentTypeId,
  priority: maintenanceTypeChecks.priority,
};

/** The checks of a type of the context's entity, in order (none for another entity's type). */
export async function listChecks(ctx: ServiceContext, maintenanceTypeId: number): Promise<CheckRow[]> {
  const rows = await ctx.db
    .select(checkColumns)
    .from(maintenanceTypeChecks)
    .where(and(eq(maintenanceTypeChecks.entityId, ctx.entityId), eq(maintenanceTypeChecks.maintenanceTypeId, maintenanceTypeId)))
    .orderBy(asc(maintenanceTypeChecks.position), asc(maintenanceTypeChecks.id));
  return rows.map((r) => ({ ...r, minValue: r.minValue === null ? null : Number(r.minValue), maxValue: r.maxValue === null ? null : Number(r.maxValue) }));
}

/** The entity's active incident types a check may open, by name in the context's language. */
export async function incidentTypeChoices(ctx: ServiceContext): Promise<{ id: number; name: string }[]> {
  assertCan(ctx.actor, "manage", "maintenance");
  const name = incidentTypeName(ctx.locale);
  return ctx.db
    .select({ id: incidentTypes.id, name })
    .from(incidentTypes)
    .where(and(eq(incidentTypes.entityId, ctx.entityId), isNull(incidentTypes.archivedAt)))
    .orderBy(asc(name), asc(incidentTypes.id))
    .limit(500);
}

/** Refuses an incident type that is not an active one of the entity. */
async function checkIncidentType(ctx: ServiceContext, id: number | null): Promise<void> {
  if (id === null) return;
  const [row] = await ctx.db
    .select({ id: incidentTypes.id })
    .from(incidentTypes)
    .where(and(eq(incidentTypes.id, id), eq(incidentTypes.entityId, ctx.entityId), isNull(incidentTypes.archivedAt)));
  if (!row) throw new ValidationError({ incidentTypeId: ["maintenance:checks.validation.incidentType"] }, "maintenance:checks.validation.incidentType", "REFERENCE_NOT_FOUND");
}

const checkNotFound = () => new NotFoundError("maintenance:checks.errors.notFound", "CHECK_NOT_FOUND");

const columnsOf = (v: CheckValues) => ({
  kind: v.kind as InspectionCheckKind,
  label: v.label,
  labelFr: v.labelFr,
  labelNl: v.labelNl,
  minValue: v.minValue,
  maxValue: v.maxValue,
  photoRequired: v.photoRequired,
  incidentTypeId: v.incidentTypeId,
  priority: v.priority as Priority,
});

/** Adds a check at the end of a type's checklist. */
export async function addMaintenanceCheck(ctx: ServiceContext, maintenanceTypeId: number, rawInput: Input<CheckInput>): Promise<{ id: number }> {
  assertCan(ctx.actor, "manage", "maintenance");
  const input = parseInput(CheckSchema, await resolveInput(rawInput));
  return withTx(ctx, async (tx, effects) => {
    await lockMaintenanceType(tx, maintenanceTypeId);
    await checkIncidentType(tx, input.incidentTypeId);
    const [{ n, last }] = await tx.db
      .select({ n: sql<number>`count(*)::int`, last: sql<number>`coalesce(max(${maintenanceTypeChecks.position}), -1)::int` })
      .from(maintenanceTypeChecks)
      .where(and(eq(maintenanceTypeChecks.entityId, tx.entityId), eq(maintenanceTypeChecks.maintenanceTypeId, maintenanceTypeId)));
    if (Number(n) >= MAX_CHECKS) throw new ValidationError({ label: ["maintenance:checks.validation.tooMany"] }, "maintenance:checks.validation.tooMany", "TOO_MANY_CHECKS");
    const [row] = await tx.db
      .insert(maintenanceTypeChecks)
      .values({ entityId: tx.entityId, maintenanceTypeId, position: Number(last) + 1, ...columnsOf(input) })
      .returning({ id: maintenanceTypeChecks.id });
    await effects.audit({ action: AUDIT.maintenanceType.addCheck, recordType: "maintenanceType", recordId: maintenanceTypeId });
    return row;
  });
}

/** Changes a check of a type (answers already given keep what they were asked). */
export async function updateMaintenanceCheck(ctx: ServiceContext, maintenanceTypeId: number, checkId: number, rawInput: Input<CheckInput>): Promise<{ id: number }> {
  assertCan(ctx.actor, "manage", "maintenance");
  const input = parseInput(CheckSchema, await resolveInput(rawInput));
  return withTx(ctx, async (tx, effects) => {
    await lockMaintenanceType(tx, maintenanceTypeId);
    await checkIncidentType(tx, input.incidentTypeId);
    const [row] = await tx.db
      .update(maintenanceTypeChecks)
      .set({ ...columnsOf(input), updatedAt: new Date() })
      .where(and(eq(maintenanceTypeChecks.id, checkId), eq(maintenanceTypeChecks.maintenanceTypeId, maintenanceTypeId), eq(maintenanceTypeChecks.entityId, tx.entityId)))
      .returning({ id: maintenanceTypeChecks.id });
    if (!row) throw checkNotFound();
    await effects.audit({ action: AUDIT.maintenanceType.updateCheck, recordType: "maintenanceType", recordId: maintenanceTypeId });
    return row;
  });
}

/** Removes a check from a type (answers already given keep their copy of it). */
export async function removeMaintenanceCheck(ctx: ServiceContext, maintenanceTypeId: number, checkId: number): Promise<void> {
  assertCan(ctx.actor, "manage", "maintenance");
  await withTx(ctx, async (tx, effects) => {
    await lockMaintenanceType(tx, maintenanceTypeId);
    const removed = await tx.db
      .delete(maintenanceTypeChecks)
      .where(and(eq(maintenanceTypeChecks.id, checkId), eq(maintenanceTypeChecks.maintenanceTypeId, maintenanceTypeId), eq(maintenanceTypeChecks.entityId, tx.entityId)))
      .returning({ id: maintenanceTypeChecks.id });
    if (removed.length === 0) throw checkNotFound();
    await effects.audit({ action: AUDIT.maintenanceType.removeCheck, recordType: "maintenanceType", recordId: maintenanceTypeId });
  });
}

/**
 * Replaces a type's checklist (the REST call): the checks in the given order, those with the id of one of
 * the type's checks changed, those without added, the type's other checks removed (answers already given
 * keep their copy), in one transaction with an audit row per check added, changed or removed. Answers the
 * checklist as stored.
 */
export async function replaceMaintenanceChecklist(ctx: ServiceContext, maintenanceTypeId: number, rawInput: Input<ChecklistInput>): Promise<CheckRow[]> {
  assertCan(ctx.actor, "manage", "maintenance");
  const { checks } = parseInput(ChecklistSchema, await resolveInput(rawInput));
  return withTx(ctx, async (tx, effects) => {
    await lockMaintenanceType(tx, maintenanceTypeId);
    for (const incidentTypeId of new Set(checks.map((c) => c.incidentTypeId))) if (incidentTypeId !== null) await checkIncidentType(tx, incidentTypeId);
    const current = new Set((await listChecks(tx, maintenanceTypeId)).map((c) => c.id));
    const given = checks.flatMap((c) => (c.id === null ? [] : [c.id]));
    if (given.some((id) => !current.has(id)) || new Set(given).size !== given.length) throw checkNotFound();
    const removed = [...current].filter((id) => !given.includes(id));
    if (removed.length) {
      await tx.db
        .delete(maintenanceTypeChecks)
        .where(and(eq(maintenanceTypeChecks.entityId, tx.entityId), eq(maintenanceTypeChecks.maintenanceTypeId, maintenanceTypeId), inArray(maintenanceTypeChecks.id, removed)));
    }
    for (const checkId of removed) await effects.audit({ action: AUDIT.maintenanceType.removeCheck, recordType: "maintenanceType", recordId: maintenanceTypeId, details: { checkId } });
    for (const [position, check] of checks.entries()) {
      if (check.id === null) {
        const [added] = await tx.db.insert(maintenanceTypeChecks).values({ entityId: tx.entityId, maintenanceTypeId, position, ...columnsOf(check) }).returning({ id: maintenanceTypeChecks.id });
        await effects.audit({ action: AUDIT.maintenanceType.addCheck, recordType: "maintenanceType", recordId: maintenanceTypeId, details: { checkId: added.id } });
      } else {
        await tx.db
          .update(maintenanceTypeChecks)
          .set({ position, ...columnsOf(check), updatedAt: new Date() })
          .where(and(eq(maintenanceTypeChecks.id, check.id), eq(maintenanceTypeChecks.maintenanceTypeId, maintenanceTypeId), eq(maintenanceTypeChecks.entityId, tx.entityId)));
        await effects.audit({ action: AUDIT.maintenanceType.updateCheck, recordType: "maintenanceType", recordId: maintenanceTypeId, details: { checkId: check.id } });
      }
    }
    return listChecks(tx, maintenanceTypeId);
  });
}

/** The checks a task is done with: its plan's type's (none when the type has no checklist). */
export async function checksOfTask(ctx: ServiceContext, task: Pick<Task, "plannedMaintenanceId">): Promise<CheckRow[]> {
  const [plan] = await ctx.db
    .select({ typeId: plannedMaintenances.maintenanceTypeId })
    .from(plannedMaintenances)
    .where(and(eq(plannedMaintenances.id, task.plannedMaintenanceId), eq(plannedMaintenances.entityId, ctx.entityId)));
  return plan ? listChecks(ctx, plan.typeId) : [];
}

/** An answer checked against its check, ready to be written (its photo scaled, not yet stored). */
export interface CheckedAnswer {
  check: CheckRow;
  answer: string;
  passed: boolean | null;
  photo: Upload | null;
}

/**
 * The answers and photos (by check id) read against the checks: every check
 * answered (pass or fail, a number, a text), a photo where one is required. Field errors otherwise,
 * all at once. Photos are checked and scaled down here, before the transaction.
 */
export async function readCheckAnswers(
  ctx: ServiceContext,
  checks: CheckRow[],
  given: Record<string, string | null | undefined>,
  photos: Record<string, Upload | null | undefined>,
): Promise<CheckedAnswer[]> {
  const errors: Record<string, string[]> = {};
  const read: { check: CheckRow; answer: string; photo: Upload | null }[] = [];
  for (const check of checks) {
    const field = answerField(check.id);
    const answer = (given[String(check.id)] ?? "").trim();
    const upload = photos[String(check.id)];
    const photo = upload && (upload.bytes.byteLength > 0 || upload.name) ? upload : null;
    if (answer === "") errors[field] = ["maintenance:checks.validation.answerRequired"];
    else if (check.kind === InspectionCheckKind.PASS_FAIL && answer !== "pass" && answer !== "fail") errors[field] = ["maintenance:checks.validation.passFail"];
    else if (check.kind === InspectionCheckKind.NUMBER && readNumber(answer) === null) errors[field] = ["maintenance:checks.validation.number"];
    else if (answer.length > CHECK_ANSWER_MAX) errors[field] = ["common:validation.tooLong"];
    if (check.photoRequired && !photo) errors[photoField(check.id)] = ["maintenance:checks.validation.photoRequired"];
    read.push({ check, answer, photo });
  }
  if (Object.keys(errors).length) throw new ValidationError(errors, "maintenance:checks.validation.incomplete", "CHECKLIST_INCOMPLETE");
  if (read.some((r) => r.photo) && !ctx.files) throw new ValidationError({ photo: ["errors.file.uploadFailed"] }, "errors.file.uploadFailed", "FILE_UPLOAD_FAILED");
  const out: CheckedAnswer[] = [];
  for (const r of read) {
    const photo = r.photo ? await prepareImage(r.photo, photoField(r.check.id), { maxBytes: ctx.files?.maxBytes }) : null;
    out.push({ check: r.check, answer: r.check.kind === InspectionCheckKind.NUMBER ? String(readNumber(r.answer)) : r.answer, passed: answerPasses(r.check, r.answer), photo });
  }
  return out;
}

const CONTENT_TYPE: Record<InspectionCheckKind, number> = {
  [InspectionCheckKind.PASS_FAIL]: ChecklistContentType.YES_NO,
  [InspectionCheckKind.NUMBER]: ChecklistContentType.NUMBER,
  [InspectionCheckKind.TEXT]: ChecklistContentType.TEXT,
};

/**
 * Writes a task's answers in the caller's unit of work (the task locked by the caller) and opens an
 * incident for each failed check that has none yet. Returns how many incidents it opened.
 */
export async function recordCheckAnswers(tx: ServiceContext, effects: Effects, task: Task, answers: CheckedAnswer[], title: string): Promise<number> {
  if (answers.length === 0) return 0;
  const uploads = tx.files ? uploadsOf(tx as FilesContext, effects) : null;
  const written: { id: number; checkId: number; incidentId: number | null; passed: boolean | null; fileId: string | null; label: string; position: number; answer: string; kind: InspectionCheckKind }[] = [];
  for (const a of answers) {
    const fileId = a.photo && uploads ? await uploads.add(a.photo, { kind: "image", field: photoField(a.check.id) }) : null;
    const label = checkLabel(tx.locale, a.check);
    const values = { label, position: a.check.position, kind: a.check.kind, minValue: a.check.minValue, maxValue: a.check.maxValue, answer: a.answer, passed: a.passed, photoFileId: fileId };
    // One answer per task and check: a second write of the same check updates it and keeps its incident.
    const [row] = await tx.db
      .insert(taskCheckAnswers)
      .values({ entityId: tx.entityId, taskId: task.id, checkId: a.check.id, ...values })
      .onConflictDoUpdate({ target: [taskCheckAnswers.taskId, taskCheckAnswers.checkId], set: { ...values, updatedAt: new Date() } })
      .returning({ id: taskCheckAnswers.id, incidentId: taskCheckAnswers.incidentId });
    written.push({ id: row.id, checkId: a.check.id, incidentId: row.incidentId, passed: a.passed, fileId, label, position: a.check.position, answer: a.answer, kind: a.check.kind });
  }
  const carried: IncidentAnswer[] = written.map((w) => ({
    position: w.position,
    question: w.label,
    contentType: CONTENT_TYPE[w.kind],
    // A pass/fail check reads as yes/no on the incident ("Pressure in range?": no).
    answer: w.kind === InspectionCheckKind.PASS_FAIL ? (w.answer === "pass" ? "yes" : "no") : w.answer,
  }));
  const [room] = await tx.db.select({ name: rooms.name, floor: rooms.floor }).from(rooms).where(and(eq(rooms.id, task.roomId), eq(rooms.entityId, tx.entityId)));
  // The person signing the inspection off takes its incidents when they may handle incidents of that room.
  const signer = tx.actor?.id ?? null;
  const [assignee] = signer === null || !written.some((w) => w.passed === false && w.incidentId === null)
    ? []
    : await tx.db.select({ id: users.id }).from(users).where(and(eq(users.id, signer), eq(users.entityId, tx.entityId), assigneeCandidates(tx, task.roomId)));
  let opened = 0;
  for (const w of written) {
    if (w.passed !== false || w.incidentId !== null) continue;
    const check = answers.find((a) => a.check.id === w.checkId)!.check;
    const incident = await createReportedIncident(tx, effects, {
      title: `${title}: ${w.label}`.slice(0, 200),
      description: null,
      roomId: task.roomId,
      equipmentItemId: task.equipmentItemId,
      location: room?.name ?? null,
      floor: room?.floor ?? null,
      priority: check.priority,
      incidentTypeId: check.incidentTypeId,
      assigneeId: assignee?.id ?? null,
      at: new Date(),
    });
    await attachToIncident(tx, incident.id, { answers: carried, fileIds: w.fileId ? [w.fileId] : [] });
    await tx.db.update(taskCheckAnswers).set({ incidentId: incident.id }).where(and(eq(taskCheckAnswers.id, w.id), eq(taskCheckAnswers.entityId, tx.entityId)));
    opened++;
  }
  return opened;
}

export type TaskAnswerView = TaskAnswer;

/** A task's answers, in order (the task already read within reach). */
export async function taskAnswers(ctx: ServiceContext, taskId: number): Promise<TaskAnswerView[]> {
  return (await answersOfTasks(ctx, [taskId])).get(taskId) ?? [];
}

/** The answers of tasks already read within reach, by task id, each in order. */
export async function answersOfTasks(ctx: ServiceContext, taskIds: number[]): Promise<Map<number, TaskAnswerView[]>> {
  const byTask = new Map<number, TaskAnswerView[]>();
  if (taskIds.length === 0) return byTask;
  const rows = await ctx.db
    .select({
      taskId: taskCheckAnswers.taskId,
      checkId: taskCheckAnswers.checkId,
      position: taskCheckAnswers.position,
      kind: taskCheckAnswers.kind,
      label: taskCheckAnswers.label,
      minValue: taskCheckAnswers.minValue,
      maxValue: taskCheckAnswers.maxValue,
      answer: taskCheckAnswers.answer,
      passed: taskCheckAnswers.passed,
      photoFileId: taskCheckAnswers.photoFileId,
      incidentId: incidents.id,
      incidentShortId: incidents.shortId,
    })
    .from(taskCheckAnswers)
    .leftJoin(incidents, and(eq(incidents.id, taskCheckAnswers.incidentId), eq(incidents.entityId, ctx.entityId), incidentReach(ctx)))
    .where(and(inArray(taskCheckAnswers.taskId, taskIds), eq(taskCheckAnswers.entityId, ctx.entityId)))
    .orderBy(asc(taskCheckAnswers.taskId), asc(taskCheckAnswers.position), asc(taskCheckAnswers.id));
  for (const { taskId, incidentId, incidentShortId, ...r } of rows) {
    const list = byTask.get(taskId) ?? [];
    list.push({
      ...r,
      minValue: r.minValue === null ? null : Number(r.minValue),
      maxValue: r.maxValue === null ? null : Number(r.maxValue),
      incident: incidentId !== null && incidentShortId !== null ? { id: incidentId, shortId: incidentShortId } : null,
    });
    byTask.set(taskId, list);
  }
  return byTask;
}


/**
 * The inspection of a plan's day (/view-task): the checks of the plan's type to answer, and the answers
 * of its tasks (already read within reach), by task id. No checks: a plain task.
 */
export async function inspectionOfDay(ctx: ServiceContext, plannedMaintenanceId: number, taskIds: number[]) {
  const [checks, answers] = await Promise.all([checksOfTask(ctx, { plannedMaintenanceId }), answersOfTasks(ctx, taskIds)]);
  const toAnswer: CheckToAnswer[] = checks.map((c) => ({ id: c.id, kind: c.kind, label: checkLabel(ctx.locale, c), minValue: c.minValue, maxValue: c.maxValue, photoRequired: c.photoRequired }));
  return { checks: toAnswer, answers: Object.fromEntries(answers) as Record<number, TaskAnswerView[]> };
}

/** The inspection task whose failed check opened an incident (the incident already read within reach). */
export async function taskOfIncident(
  ctx: ServiceContext,
  incidentId: number,
): Promise<{ taskId: number; plannedMaintenanceId: number; dueDate: string; planName: string; label: string } | null> {
  const [row] = await ctx.db
    .select({ taskId: tasks.id, plannedMaintenanceId: tasks.plannedMaintenanceId, dueDate: tasks.dueDate, planName: plannedMaintenances.name, label: taskCheckAnswers.label })
    .from(taskCheckAnswers)
    .innerJoin(tasks, and(eq(tasks.id, taskCheckAnswers.taskId), eq(tasks.entityId, ctx.entityId)))
    .innerJoin(plannedMaintenances, and(eq(plannedMaintenances.id, tasks.plannedMaintenanceId), eq(plannedMaintenances.entityId, ctx.entityId)))
    .where(and(eq(taskCheckAnswers.incidentId, incidentId), eq(taskCheckAnswers.entityId, ctx.entityId)))
    .limit(1);
  return row ?? null;
}

/** The plan names a title is made of (the incident a failed check opens is titled "<plan>: <check>"). */
export async function inspectionTitle(ctx: ServiceContext, task: Task): Promise<string> {
  const [row] = await ctx.db
    .select({ name: plannedMaintenances.name })
    .from(plannedMaintenances)
    .where(and(eq(plannedMaintenances.id, task.plannedMaintenanceId), eq(plannedMaintenances.entityId, ctx.entityId)));
  return row?.name ?? "";
}

/** The person who signs off, by name as it is now (kept on the task for the printed report). */
export async function signerName(ctx: ServiceContext, userId: number | null): Promise<string | null> {
  if (userId === null) return null;
  const [row] = await ctx.db.select({ name: users.name, surname: users.surname }).from(users).where(and(eq(users.id, userId), eq(users.entityId, ctx.entityId)));
  return row ? `${row.name} ${row.surname}`.trim() : null;
}

import { and, eq, sql } from "drizzle-orm";
import { type Actor, assertCan, can } from "~/core/actor";
import type { ServiceContext } from "~/core/context.server";
import { type Input, resolveInput } from "~/core/input";
import { type Effects, withTx } from "~/core/unit-of-work.server";
import { TaskStatus } from "~/db/enums";
import { plannedMaintenanceAssignees, type Task, tasks } from "~/db/schema";
import { ForbiddenError, ValidationError } from "~/lib/errors";
import { parseInput } from "~/lib/validation";
import { prepareImage } from "~/modules/files/images.server";
import { type FilesContext, type Upload, uploadsOf } from "~/modules/files/uploads.server";
import { taskDone, taskReopened } from "./changes.server";
import { checksOfTask, inspectionTitle, readCheckAnswers, recordCheckAnswers, signerName, type TaskAnswerView, taskAnswers } from "./inspections.server";
import { findTaskInReach } from "./task-queries.server";
import { type CompleteTaskInput, CompleteTaskSchema, type SetTaskStatusInput, SetTaskStatusSchema } from "./task-schema";

/**
 * The writes of a maintenance task (SPEC.md sections 3 and 4: pending, done), one verb each, shared by
 * /task, /view-task/{id}/{date} and PUT /api/tasks/{id}/status.
 *
 * Who: a task in the actor's reach (./task-queries.server.ts; anything else is "Task not found").
 * Facility managers and administrators (`task: manage`) may mark any of those done or undo it;
 * technicians (`task: update`) the tasks assigned to them (by the task, or by its plan when the task
 * names nobody) and the tasks nobody is assigned to (decision 051).
 *
 * Done records who and when, with an optional note and photo; undoing makes it pending again and clears
 * them (the photo is retired after commit). Each emits its change (./changes.server.ts) in the same
 * transaction; marking a task as what it already is writes nothing and emits nothing.
 */

export type TaskState = Pick<
  Task,
  "id" | "plannedMaintenanceId" | "roomId" | "dueDate" | "status" | "doneAt" | "doneById" | "note" | "photoFileId" | "signedOffById" | "signedOffName" | "signedOffAt"
>;

const state = (row: Task): TaskState => ({
  id: row.id,
  plannedMaintenanceId: row.plannedMaintenanceId,
  roomId: row.roomId,
  dueDate: row.dueDate,
  status: row.status,
  doneAt: row.doneAt,
  doneById: row.doneById,
  note: row.note,
  photoFileId: row.photoFileId,
  signedOffById: row.signedOffById,
  signedOffName: row.signedOffName,
  signedOffAt: row.signedOffAt,
});

/**
 * Whether the actor may mark this task: managers any in reach; technicians theirs, or nobody's (Forbidden
 * otherwise). The same rule lets a technician record time and material on it (time-costs).
 */
export async function mayMarkTask(ctx: ServiceContext, actor: Actor, task: Task): Promise<void> {
  if (can(actor, "manage", "task") || actor.kind === "system") return;
  const me = actor.id;
  if (task.assigneeId !== null) {
    if (task.assigneeId === me) return;
    throw new ForbiddenError("tasks:errors.notYours", "TASK_NOT_YOURS");
  }
  const [plan] = await ctx.db
    .select({
      n: sql<number>`count(*)::int`,
      mine: sql<number>`(count(*) filter (where ${plannedMaintenanceAssignees.userId} = ${me}))::int`,
    })
    .from(plannedMaintenanceAssignees)
    .where(and(eq(plannedMaintenanceAssignees.plannedMaintenanceId, task.plannedMaintenanceId), eq(plannedMaintenanceAssignees.entityId, ctx.entityId)));
  if (Number(plan.n) === 0 || Number(plan.mine) > 0) return;
  throw new ForbiddenError("tasks:errors.notYours", "TASK_NOT_YOURS");
}

async function write(ctx: ServiceContext, id: number, values: Partial<typeof tasks.$inferInsert>): Promise<Task> {
  const [row] = await ctx.db
    .update(tasks)
    .set({ ...values, updatedAt: new Date() })
    .where(and(eq(tasks.id, id), eq(tasks.entityId, ctx.entityId)))
    .returning();
  return row;
}

/** Runs `work` on the locked task in reach that the actor may act on, in one unit of work. */
function onTask<C extends ServiceContext, T>(ctx: C, id: number, work: (tx: C, task: Task, effects: Effects) => Promise<T>): Promise<T> {
  assertCan(ctx.actor, "update", "task");
  const actor = ctx.actor;
  return withTx(ctx, async (tx, effects) => {
    const task = await findTaskInReach(tx, id, { lock: true });
    await mayMarkTask(tx, actor, task);
    return work(tx, task, effects);
  });
}

export interface CompleteTaskUpload extends CompleteTaskInput {
  /** A photo of the work (an image: PNG, JPEG, GIF or WebP), scaled down and stripped of metadata. */
  photo?: Upload | null;
  /** The answers to its type's checks, by check id (an inspection: every check must be answered). */
  checks?: Record<string, string | null | undefined>;
  /** The checks' photos, by check id. */
  checkPhotos?: Record<string, Upload | null | undefined>;
}

/**
 * Marks a task done, with an optional note and photo. A task already done stays as it is. A task whose
 * type has checks is an inspection: done only with every check answered, which records the answers, opens
 * the incidents of failed checks (./inspections.server.ts) and the sign-off (who, their name, when).
 */
export async function completeTask(ctx: ServiceContext, id: number, rawInput: Input<CompleteTaskUpload>): Promise<TaskState> {
  assertCan(ctx.actor, "update", "task");
  const raw = (await resolveInput(rawInput)) ?? {};
  const { note } = parseInput(CompleteTaskSchema, { note: raw.note });
  const given = raw.photo && (raw.photo.bytes.byteLength > 0 || raw.photo.name) ? raw.photo : null;
  if (given && !ctx.files) throw new ValidationError({ photo: ["errors.file.uploadFailed"] }, "errors.file.uploadFailed", "FILE_UPLOAD_FAILED");
  const photo = given ? await prepareImage(given, "photo", { maxBytes: ctx.files?.maxBytes }) : null;
  // The checklist is read and checked before the transaction (the task in reach first: nothing is said
  // of a task out of reach); the answers are written with the task locked.
  const checks = await checksOfTask(ctx, await findTaskInReach(ctx, id));
  const answers = checks.length ? await readCheckAnswers(ctx, checks, raw.checks ?? {}, raw.checkPhotos ?? {}) : [];
  return onTask(ctx, id, async (tx, task, effects) => {
    if (task.status === TaskStatus.DONE) return state(task);
    const photoFileId = photo ? await uploadsOf(tx as FilesContext, effects).add(photo, { kind: "image", field: "photo" }) : null;
    const at = new Date();
    const by = tx.actor?.id ?? null;
    if (answers.length) await recordCheckAnswers(tx, effects, task, answers, await inspectionTitle(tx, task));
    const signOff = answers.length ? { signedOffById: by, signedOffName: await signerName(tx, by), signedOffAt: at } : {};
    const row = await write(tx, task.id, { status: TaskStatus.DONE, doneAt: at, doneById: by, note, photoFileId, ...signOff });
    await effects.emit(taskDone, {
      taskId: row.id,
      plannedMaintenanceId: row.plannedMaintenanceId,
      roomId: row.roomId,
      dueDate: row.dueDate,
      assigneeId: row.assigneeId,
      hasNote: note !== null,
      hasPhoto: photoFileId !== null,
    });
    return state(row);
  });
}

/** Undoes "done": the task is pending again; who did it, when, the note and the photo are cleared. */
export async function reopenTask(ctx: ServiceContext, id: number): Promise<TaskState> {
  return onTask(ctx, id, async (tx, task, effects) => {
    if (task.status === TaskStatus.PENDING) return state(task);
    // The checklist's answers stay (with the incidents they opened); the sign-off goes with "done".
    const row = await write(tx, task.id, { status: TaskStatus.PENDING, doneAt: null, doneById: null, note: null, photoFileId: null, signedOffById: null, signedOffName: null, signedOffAt: null });
    if (task.photoFileId && tx.files) uploadsOf(tx as FilesContext, effects).retire(task.photoFileId);
    await effects.emit(taskReopened, { taskId: row.id, plannedMaintenanceId: row.plannedMaintenanceId, roomId: row.roomId, dueDate: row.dueDate });
    return state(row);
  });
}

/**
 * PUT /api/tasks/{id}/status: done (1, with an optional note and an inspection's answers) or pending (0).
 * Answers with the task's checklist answers (none for a plain task).
 */
export async function setTaskStatus(ctx: ServiceContext, id: number, rawInput: Input<SetTaskStatusInput>): Promise<TaskState & { answers: TaskAnswerView[] }> {
  assertCan(ctx.actor, "update", "task");
  const { status, note, checks } = parseInput(SetTaskStatusSchema, await resolveInput(rawInput));
  const task = status === TaskStatus.DONE ? await completeTask(ctx, id, { note, checks }) : await reopenTask(ctx, id);
  return { ...task, answers: await taskAnswers(ctx, task.id) };
}

import { parseWithZod } from "@conform-to/zod/v4";
import { redirect } from "@remix-run/node";
import { asDomainError, ForbiddenError } from "~/lib/errors";
import { logger } from "~/lib/logger.server";
import { CompleteTaskSchema, TASK_DONE_INTENT, TASK_UNDO_INTENT } from "~/modules/maintenance/task-schema";
import type { Upload } from "~/modules/files/uploads.server";
import { completeTask, reopenTask } from "~/modules/maintenance/tasks.server";
import { controlCharacterErrors, formFailed, toUpload, uploadedFile } from "./form-action.server";
import type { IntentArgs } from "./screen.server";
import { toastHeader } from "./toast.server";

/**
 * The two task forms of /task and /view-task/{id}/{date} (`intent=done`, `intent=undo`, each naming its
 * `taskId`): plain posts that work without JavaScript. Done: the note (and photo) parsed with the
 * verb's schema; an invalid note answers the form again under `done` with the input kept. Any other
 * refusal (the task is out of reach, not the technician's) is an error toast on the page it came from.
 */

function taskIdOf(formData: FormData): number {
  const value = formData.get("taskId");
  return typeof value === "string" && /^\d{1,9}$/.test(value) ? Number(value) : 0;
}

async function refused(error: unknown, back: string) {
  const known = asDomainError(error);
  if (!known) logger().error({ err: error }, "task form: could not save");
  const key = known && (known instanceof ForbiddenError || known.status === 404 || known.status === 409) ? known.messageKey : "common:errors.couldNotSave";
  return redirect(back, { headers: { "Set-Cookie": await toastHeader({ type: "error", key }) } });
}

/** An inspection's answers and photos as posted: `checks.<id>` and `checkPhotos.<id>` (none for a plain task). */
async function checklistOf(formData: FormData): Promise<{ checks: Record<string, string>; checkPhotos: Record<string, Upload> }> {
  const checks: Record<string, string> = {};
  const checkPhotos: Record<string, Upload> = {};
  for (const [name, value] of formData.entries()) {
    const answer = /^checks\.(\d{1,9})$/.exec(name);
    if (answer && typeof value === "string") checks[answer[1]] = value;
    const photo = /^checkPhotos\.(\d{1,9})$/.exec(name);
    if (photo && typeof value !== "string" && value.size > 0) checkPhotos[photo[1]] = await toUpload(value);
  }
  return { checks, checkPhotos };
}

/** The task intents of a screen, going back to `back(args)` after each. */
export function taskIntents<S>(back: (args: IntentArgs<S>) => string, options: { allowed?: (taskId: number, args: IntentArgs<S>) => boolean } = {}) {
  const allowed = options.allowed ?? (() => true);
  return {
    [TASK_DONE_INTENT]: async (args: IntentArgs<S>) => {
      const { ctx, formData, intent } = args;
      const submission = parseWithZod(formData, { schema: CompleteTaskSchema });
      const control = controlCharacterErrors(formData);
      if (control) return formFailed(intent, submission.reply({ fieldErrors: control }));
      if (submission.status !== "success") return formFailed(intent, submission.reply());
      const taskId = taskIdOf(formData);
      try {
        if (!allowed(taskId, args)) throw new ForbiddenError("tasks:notFound.task");
        const photo = uploadedFile(formData, "photo");
        await completeTask(ctx, taskId, { note: submission.value.note, photo: photo ? await toUpload(photo) : null, ...(await checklistOf(formData)) });
      } catch (error) {
        const known = asDomainError(error);
        if (known?.status === 400) {
          const fieldErrors = Object.fromEntries(Object.entries(known.fieldErrors ?? {}).filter(([k]) => k !== "_form"));
          return formFailed(intent, submission.reply({ fieldErrors, formErrors: Object.keys(fieldErrors).length ? [] : [known.messageKey] }));
        }
        return refused(error, back(args));
      }
      return redirect(back(args), { headers: { "Set-Cookie": await toastHeader({ type: "success", key: "tasks:toast.done" }) } });
    },
    [TASK_UNDO_INTENT]: async (args: IntentArgs<S>) => {
      const taskId = taskIdOf(args.formData);
      try {
        if (!allowed(taskId, args)) throw new ForbiddenError("tasks:notFound.task");
        await reopenTask(args.ctx, taskId);
      } catch (error) {
        return refused(error, back(args));
      }
      return redirect(back(args), { headers: { "Set-Cookie": await toastHeader({ type: "success", key: "tasks:toast.reopened" }) } });
    },
  };
}

const KEPT = ["view", "status", "building", "plan", "assignee", "page", "size", "month", "date", "day"];

/** /task with the list's or calendar's parameters of `url` (nothing else, never elsewhere). */
export function taskListHref(url: URL): string {
  const keep = new URLSearchParams();
  for (const name of KEPT) {
    const value = url.searchParams.get(name);
    if (value && /^[a-z0-9-]{1,10}$/i.test(value)) keep.set(name, value);
  }
  const search = keep.toString();
  return `/task${search ? `?${search}` : ""}`;
}

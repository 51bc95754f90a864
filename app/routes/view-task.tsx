import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { useResultFor } from "~/components/forms/zod-form";
import { DeleteWorkDialogs, WorkSection } from "~/components/time-costs/incident-work";
import { TaskDayWorkTable } from "~/components/time-costs/task-day-work";
import { useTranslation } from "react-i18next";
import { BackLink } from "~/components/forms/form-parts";
import { useErrorText } from "~/components/forms/zod-form";
import type { TitledHandle } from "~/components/shell/document-title";
import { ChecklistFields, InspectionAnswers } from "~/components/tasks/inspection-parts";
import { DONE, DoneBy, TaskStatusBadge, useWallTime } from "~/components/tasks/task-parts";
import { Button } from "~/components/ui/button";
import { Label } from "~/components/ui/label";
import { Textarea } from "~/components/ui/textarea";
import type { FormFailure } from "~/http/form-action.server";
import { notFound, orErrorPage, routeId } from "~/http/route-params.server";
import { type IntentArgs, screenAction, screenLoader, type SubjectReader } from "~/http/screen.server";
import { taskIntents } from "~/http/task-actions.server";
import { workIntents } from "~/http/work-actions.server";
import { dayIn, isCalendarDay } from "~/lib/dates";
import { VIEW_INTENTS, WORK_SECTION, WORK_TASK_PARAM } from "~/lib/incident-view";
import { getWork, taskDayWork } from "~/modules/time-costs/queries.server";
import { useDates } from "~/lib/use-dates";
import { inspectionOfDay } from "~/modules/maintenance/inspections.server";
import { getTaskDay, type TaskDay } from "~/modules/maintenance/task-queries.server";
import { TASK_DONE_INTENT, TASK_NOTE_MAX } from "~/modules/maintenance/task-constants";

/**
 * /view-task/{id}/{date}, for every signed-in user (SPEC.md section 2): planned maintenance {id}'s tasks
 * of {date} (one per location) within the viewer's reach, with the plan's instructions, each task's
 * place (linking to its room), status and who did it when; mark done (note, photo) and undo, as plain
 * multipart posts. A plan whose type has an inspection checklist shows it inside each pending task's form
 * (every check to answer), and each done task's answers, the incidents they opened and the sign-off.
 * A plan the viewer cannot reach, or a day without its tasks, is the 404 page
 * ("Planned maintenance not found").
 *
 * The time and materials section (issue 62) of one of the day's tasks: `?work=<taskId>` (the first
 * location's by default), the incident view's section and forms (app/http/work-actions.server.ts),
 * posting to this address with its `work` parameter. With several locations, a table above it gives
 * each location's time, material and cost and the day's over them all, each location linking to its
 * section.
 */
const NOT_FOUND = "tasks:notFound.plannedMaintenance";

const taskDay: SubjectReader<TaskDay> = ({ ctx, params }) => {
  const id = routeId(params, "id", NOT_FOUND);
  if (!isCalendarDay(params.date)) throw notFound(NOT_FOUND);
  return orErrorPage(getTaskDay(ctx, id, params.date));
};

export const handle: TitledHandle = {
  documentTitle: (data: { day?: TaskDay }) => data.day?.plan.name,
};

/** The task whose work the page shows: `?work=<id>` among the day's tasks, else the first; 0 for an id not of the day. */
function workTaskId(day: TaskDay, url: URL): number {
  const asked = url.searchParams.get(WORK_TASK_PARAM);
  if (asked === null) return day.tasks[0].id;
  return day.tasks.find((t) => String(t.id) === asked)?.id ?? 0;
}

export const loader = screenLoader(taskDay, async ({ subject, ctx, url }) => {
  const taskId = workTaskId(subject, url) || subject.tasks[0].id;
  const taskIds = subject.tasks.map((t) => t.id);
  const [work, inspection, dayWork] = await Promise.all([
    getWork(ctx, { taskId }),
    inspectionOfDay(ctx, subject.plan.id, taskIds),
    taskIds.length > 1 ? taskDayWork(ctx, taskIds) : null,
  ]);
  return { day: subject, maxBytes: ctx.files.maxBytes, workTaskId: taskId, work, dayWork, today: dayIn(new Date(), ctx.timeZone), inspection };
});

/** Back at the section of the task worked on. */
const atWork = ({ subject, url }: IntentArgs<TaskDay>) => `${url.pathname}?${WORK_TASK_PARAM}=${workTaskId(subject, url)}#${WORK_SECTION}`;

export const action = screenAction<TaskDay>({
  subject: taskDay,
  files: true,
  intents: {
    ...taskIntents<TaskDay>(({ url }) => url.pathname, { allowed: (taskId, { subject }) => subject.tasks.some((t) => t.id === taskId) }),
    ...workIntents<TaskDay>(({ subject, url }) => ({ taskId: workTaskId(subject, url) }), atWork),
  },
});

/** A location of the day: its building, room and equipment. */
const placeOf = (task: TaskDay["tasks"][number]) => [task.buildingName, task.roomName, task.equipmentName].filter(Boolean).join(" · ");

export default function ViewTask() {
  const { t } = useTranslation("tasks");
  const { day, maxBytes, work, dayWork, workTaskId: shownTaskId, today, inspection } = useLoaderData<typeof loader>();
  const resultFor = useResultFor();
  const shownTask = day.tasks.find((task) => task.id === shownTaskId);
  const failure = useActionData<typeof action>() as FormFailure | undefined;
  const dates = useDates();
  const wallTime = useWallTime();
  const failedTaskId = failure?.intent === TASK_DONE_INTENT ? String((failure.result.initialValue as Record<string, unknown> | undefined)?.taskId ?? "") : "";
  // Schema and file messages: keys of this area's namespace, or of the common one.
  const errorText = useErrorText(["tasks"]);
  const message = (key: string) => errorText([key])?.[0] ?? key;
  const time = day.plan.timeOfDay ? wallTime(day.plan.timeOfDay) : t("allDay");
  return (
    <>
      <DeleteWorkDialogs work={work} />
      <div className="mx-auto grid w-full max-w-4xl gap-6">
        <div className="grid gap-1">
          <BackLink to="/task">{t("view.back")}</BackLink>
          <h1 className="text-2xl font-semibold tracking-tight">{day.plan.name}</h1>
          <p className="text-sm text-muted-foreground">
            {dates.day(day.date)} · {time}
            {day.plan.maintenanceTypeName ? ` · ${day.plan.maintenanceTypeName}` : ""}
          </p>
          {inspection.checks.length ? (
            <a href={`/view-task/${day.plan.id}/${day.date}/inspection.pdf`} target="_blank" rel="noopener" className="w-fit text-sm font-medium underline underline-offset-4">
              {t("inspection.report")}
            </a>
          ) : null}
        </div>

        <section aria-labelledby="task-instructions" className="grid gap-2 rounded-md border bg-background p-4">
          <h2 id="task-instructions" className="text-lg font-semibold">
            {t("view.instructions")}
          </h2>
          <p className="whitespace-pre-line break-words text-sm">{day.plan.instructions || t("view.noInstructions")}</p>
        </section>

        <section aria-labelledby="task-locations" className="grid gap-3">
          <h2 id="task-locations" className="text-lg font-semibold">
            {t("view.locations", { count: day.tasks.length })}
          </h2>
          <ul className="grid gap-3">
            {day.tasks.map((task) => {
              const failed = failedTaskId === String(task.id) ? failure : undefined;
              const noteError = failed?.result.error?.note?.[0];
              const photoError = failed?.result.error?.photo?.[0];
              const formError = failed?.result.error?.[""]?.[0];
              const noteId = `note-${task.id}`;
              const photoId = `photo-${task.id}`;
              const place = placeOf(task);
              return (
                <li key={task.id} className="grid gap-3 rounded-md border bg-background p-4" data-testid={`task-${task.id}`}>
                  <div className="flex flex-wrap items-center justify-between gap-2">
                    <div className="grid gap-1">
                      <Link to={`/view-room/${task.roomId}`} className="font-medium underline-offset-4 hover:underline">
                        {place}
                      </Link>
                      <p className="text-sm text-muted-foreground">{task.assignees ? t("view.assignees", { names: task.assignees }) : t("unassigned")}</p>
                    </div>
                    <TaskStatusBadge status={task.status} />
                  </div>
                  {day.tasks.length > 1 ? (
                    <Link
                      to={`?${WORK_TASK_PARAM}=${task.id}#${WORK_SECTION}`}
                      preventScrollReset
                      className="w-fit text-sm font-medium text-primary underline-offset-4 hover:underline"
                      aria-label={t("view.workFor", { place })}
                      aria-current={task.id === shownTaskId ? "true" : undefined}
                    >
                      {t("view.work")}
                    </Link>
                  ) : null}
                  {task.status === DONE ? (
                    <div className="grid gap-2 text-sm">
                      <p>
                        <DoneBy task={task} />
                      </p>
                      <InspectionAnswers answers={inspection.answers[task.id] ?? []} signedOff={{ name: task.signedOffName, at: task.signedOffAt }} />
                      {task.note ? <p className="whitespace-pre-line break-words">{task.note}</p> : null}
                      {task.photoFileId ? (
                        <a href={`/files/${task.photoFileId}`} className="w-fit underline-offset-4 hover:underline">
                          <img src={`/files/${task.photoFileId}`} alt={t("view.photoOf", { place })} className="max-h-48 rounded border" loading="lazy" />
                        </a>
                      ) : null}
                      <Form method="post">
                        <input type="hidden" name="taskId" value={task.id} />
                        <Button type="submit" name="intent" value="undo" variant="outline" size="sm" aria-label={`${t("actions.undo")}: ${place}`}>
                          {t("actions.undo")}
                        </Button>
                      </Form>
                    </div>
                  ) : (
                    <Form method="post" encType="multipart/form-data" className="grid gap-3" aria-label={t("view.markDoneFor", { place })}>
                      <input type="hidden" name="taskId" value={task.id} />
                      {formError ? (
                        <p role="alert" className="text-sm text-destructive">
                          {message(formError)}
                        </p>
                      ) : null}
                      {inspection.checks.length ? (
                        <ChecklistFields
                          taskId={task.id}
                          checks={inspection.checks}
                          values={failed ? (failed.result.initialValue as Record<string, unknown> | undefined) : undefined}
                          errors={failed?.result.error}
                        />
                      ) : null}
                      <div className="grid gap-1.5">
                        <Label htmlFor={noteId}>{t("view.note")}</Label>
                        <Textarea
                          id={noteId}
                          name="note"
                          rows={2}
                          maxLength={TASK_NOTE_MAX}
                          defaultValue={failed ? String((failed.result.initialValue as Record<string, unknown> | undefined)?.note ?? "") : ""}
                          aria-invalid={noteError ? true : undefined}
                          aria-describedby={noteError ? `${noteId}-error` : undefined}
                        />
                        {noteError ? (
                          <p id={`${noteId}-error`} className="text-sm text-destructive">
                            {message(noteError)}
                          </p>
                        ) : null}
                      </div>
                      <div className="grid gap-1.5">
                        <Label htmlFor={photoId}>{t("view.photo")}</Label>
                        <input id={photoId} name="photo" type="file" accept="image/png,image/jpeg,image/gif,image/webp" className="text-sm" aria-describedby={`${photoId}-hint`} aria-invalid={photoError ? true : undefined} />
                        <p id={`${photoId}-hint`} className="text-xs text-muted-foreground">
                          {t("view.photoHint", { size: Math.round((maxBytes / (1024 * 1024)) * 10) / 10 })}
                        </p>
                        {photoError ? <p className="text-sm text-destructive">{message(photoError)}</p> : null}
                      </div>
                      <Button type="submit" name="intent" value="done" className="w-full sm:w-fit">
                        {t("actions.markDone")}
                      </Button>
                    </Form>
                  )}
                </li>
              );
            })}
          </ul>
        </section>

        {dayWork ? (
          <TaskDayWorkTable
            locations={day.tasks.map((task) => ({ taskId: task.id, place: placeOf(task) }))}
            work={dayWork}
            shownTaskId={shownTaskId}
          />
        ) : null}

        <WorkSection
          record="task"
          place={day.tasks.length > 1 && shownTask ? placeOf(shownTask) : undefined}
          work={work}
          today={today}
          timeResult={resultFor(VIEW_INTENTS.recordTime)}
          materialResult={resultFor(VIEW_INTENTS.addMaterial)}
          updateTimeResult={resultFor(VIEW_INTENTS.updateTime)}
          updateMaterialResult={resultFor(VIEW_INTENTS.updateMaterial)}
        />
      </div>
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";

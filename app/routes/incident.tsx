import { useLoaderData, useLocation } from "@remix-run/react";
import type { TitledHandle } from "~/components/shell/document-title";
import { useResultFor } from "~/components/forms/zod-form";
import { IncidentActivity } from "~/components/incidents/view/incident-activity";
import { DeleteCommentDialog, IncidentComments } from "~/components/incidents/view/incident-comments";
import { LazyIncidentDialogs } from "~/components/incidents/view/lazy-dialogs";
import { DeleteFileDialog, IncidentFiles } from "~/components/incidents/view/incident-files";
import { OpenedByInspection } from "~/components/tasks/inspection-parts";
import { IncidentChecklist, IncidentDescription, IncidentDetails, IncidentDuplicates, IncidentHeader } from "~/components/incidents/view/incident-header";
import { IncidentDowntime } from "~/components/incidents/view/incident-downtime";
import { DeleteWorkDialogs, WorkSection } from "~/components/time-costs/incident-work";
import { z } from "zod";
import { uploadsOf } from "~/http/form-action.server";
import { orErrorPage, routeId } from "~/http/route-params.server";
import { formIntent, screenAction, screenLoader, type SubjectReader, subjectById } from "~/http/screen.server";
import { ACTIVITY_PARAM, ACTIVITY_TABS, type ActivityTab, ASSIGNEE_PAGE_PARAM, ASSIGNEE_Q_PARAM, ASSIGNEES_PAGE_SIZE, COMMENT_SECTION, COMMENTS_SHOWN_PARAM, EDIT_PARAM, EVENTS_SHOWN_PARAM, INCIDENT_NOT_FOUND, incidentPath, MAX_COMMENTS_SHOWN, MAX_EVENTS_SHOWN, shownCount, VIEW_INTENTS, type ViewIntent, WORK_SECTION } from "~/lib/incident-view";
import { dayIn } from "~/lib/dates";
import { intParam, searchParam } from "~/lib/list-query";
import { COMMENTS_PAGE, EVENTS_PAGE } from "~/modules/incidents/constants";
import { findIncidentInReach, getIncidentView, listIncidentAssignees } from "~/modules/incidents/queries.server";
import { AssignSchema, CommentSchema, DescriptionSchema, DowntimeSchema, DuplicateSchema, SetPrioritySchema, SetStatusSchema, TagSchema, TitleSchema } from "~/modules/incidents/schema";
import { addIncidentFiles, addIncidentTag, assignIncident, deleteIncidentComment, markIncidentDuplicate, postIncidentComment, removeIncidentFile, removeIncidentTag, setIncidentDowntime, setIncidentPriority, setIncidentStatus, updateIncidentComment, updateIncidentDescription, updateIncidentTitle } from "~/modules/incidents/service.server";
import type { FilesContext } from "~/modules/files/uploads.server";
import { getWork } from "~/modules/time-costs/queries.server";
import { workIntents } from "~/http/work-actions.server";
import { taskOfIncident } from "~/modules/maintenance/inspections.server";

/**
 * /incident/{id} (also /incident/{id}#commentSection), SPEC.md section 2: the incident's details,
 * images and files, checklist answers, duplicates, comments, events and history, and the dialogs
 * (`?dialog=status|assign|priority|tags|title|description|duplicate`), each a plain form posting one
 * `intent`, one verb each; the time and materials section (issue 62, app/http/work-actions.server.ts)
 * records time and material, starts and stops the clock, corrects an entry (`?editEntry=<id>`,
 * `?editLine=<id>`) and deletes one after a confirmation (`?dialog=delete-time|delete-material`). An incident the viewer cannot see (another entity's, outside their reach,
 * unknown, or a malformed id such as "abc" or 2147483648) is "Incident not found", whatever is posted.
 */

/** The page's subject: the incident with its latest comments and events, one reach check for the three reads. */
const incidentView: SubjectReader<Awaited<ReturnType<typeof getIncidentView>>> = ({ ctx, params, url }) =>
  orErrorPage(
    getIncidentView(ctx, routeId(params, "id", INCIDENT_NOT_FOUND), {
      comments: shownCount(intParam(url.searchParams, COMMENTS_SHOWN_PARAM), COMMENTS_PAGE, MAX_COMMENTS_SHOWN),
      events: shownCount(intParam(url.searchParams, EVENTS_SHOWN_PARAM), EVENTS_PAGE, MAX_EVENTS_SHOWN),
    }),
  );

/** "#12 Leak · Incident · Caretaker": tabs of several incidents told apart. */
export const handle: TitledHandle = {
  documentTitle: (data: { incident?: { shortId: number; title: string } }) => (data.incident ? `#${data.incident.shortId} ${data.incident.title}` : null),
};

export const loader = screenLoader(incidentView, async ({ ctx, url, user, subject: { incident, comments, events } }) => {
  const search = url.searchParams;
  const assigneeQ = searchParam(search, ASSIGNEE_Q_PARAM);
  // The assign dialog's users, when it is open (the incident is known to be in reach by now).
  const assignees =
    search.get("dialog") === "assign"
      ? await listIncidentAssignees(ctx, incident.id, { q: assigneeQ, page: Math.min(intParam(search, ASSIGNEE_PAGE_PARAM) ?? 1, 10_000), size: ASSIGNEES_PAGE_SIZE })
      : null;
  const activityParam = search.get(ACTIVITY_PARAM);
  const activity: ActivityTab = (ACTIVITY_TABS as readonly string[]).includes(activityParam ?? "") ? (activityParam as ActivityTab) : "events";
  // Events oldest first, like the comments.
  const shownEvents = { items: [...events.items].reverse(), total: events.total };
  const [work, inspection] = await Promise.all([getWork(ctx, { incidentId: incident.id }), taskOfIncident(ctx, incident.id)]);
  // The instant the page was read: service-level "due in" texts are written from it, alike on both sides.
  const read = new Date();
  const now = read.toISOString();
  const today = dayIn(read, ctx.timeZone);
  return { incident, comments, events: shownEvents, assignees, assigneeQ, activity, maxBytes: ctx.files.maxBytes, viewerId: user.id, work, today, now, inspection };
});

type Here = { subject: { id: number } };
/** The incident the action reads (in reach), the subject of its intents. */
type Incident = Awaited<ReturnType<typeof findIncidentInReach>>;
const here = ({ subject }: Here) => incidentPath(subject.id);
const inTags = (args: Here) => `${here(args)}?dialog=tags`;
const atComments = (args: Here) => `${here(args)}#${COMMENT_SECTION}`;
const atFiles = (args: Here) => `${here(args)}#files`;
const atWork = (args: Here) => `${here(args)}#${WORK_SECTION}`;

/** A dialog's change: one verb of the incident, then back to `to` (the page, dialog closed) with `toast`. */
function change<Z extends z.ZodType>(schema: Z, toast: string, verb: (ctx: FilesContext, id: number, value: z.output<Z>) => Promise<unknown>, to = here) {
  return formIntent<Here["subject"], Z>({ schema, redirectTo: to, toast }, (value, { ctx, subject }) => verb(ctx, subject.id, value));
}

const NoFields = z.object({});
const RemoveTagSchema = z.object({
  tag: z.string({ error: "common:validation.invalid" }).max(200, "common:validation.invalid"),
});

/** The posted comment id (1 to 9 digits), or 0 (which the verbs answer "Comment not found"). */
const postedId = (formData: FormData, name: string) => {
  const value = formData.get(name);
  return typeof value === "string" && /^\d{1,9}$/.test(value) ? Number(value) : 0;
};

/**
 * A failure of a comment's form (or a file's) that is not the user's input (the comment is gone, is
 * someone else's, the server failed) is an error toast (SPEC.md section 8), not an error beside a field.
 */
const commentFailure = (toast: string) => ({ toast, to: atComments });

export const action = screenAction<Incident>({
  // Out of reach (or another entity's) is "Incident not found" whatever is posted, before the body is read.
  subject: subjectById(findIncidentInReach, INCIDENT_NOT_FOUND),
  files: true,
  intents: {
    [VIEW_INTENTS.status]: change(SetStatusSchema, "incidents:success.status", setIncidentStatus),
    [VIEW_INTENTS.priority]: change(SetPrioritySchema, "incidents:success.priority", setIncidentPriority),
    [VIEW_INTENTS.assign]: change(AssignSchema, "incidents:success.assignee", assignIncident),
    // The tags dialog stays open: several tags are often added or removed in a row.
    [VIEW_INTENTS.addTag]: change(TagSchema, "incidents:success.tagAdded", addIncidentTag, inTags),
    [VIEW_INTENTS.removeTag]: change(RemoveTagSchema, "incidents:success.tagRemoved", removeIncidentTag, inTags),
    [VIEW_INTENTS.title]: change(TitleSchema, "incidents:success.title", updateIncidentTitle),
    [VIEW_INTENTS.description]: change(DescriptionSchema, "incidents:success.description", updateIncidentDescription),
    [VIEW_INTENTS.duplicate]: change(DuplicateSchema, "incidents:success.duplicate", markIncidentDuplicate),
    [VIEW_INTENTS.comment]: formIntent(
      { schema: CommentSchema, redirectTo: atComments, toast: "incidents:success.commentPosted", failure: commentFailure("incidents:errors.commentPost") },
      async ({ body }, { ctx, subject, formData }) => postIncidentComment(ctx, subject.id, { body, files: await uploadsOf(formData, "files") }),
    ),
    [VIEW_INTENTS.editComment]: formIntent(
      { schema: CommentSchema, redirectTo: atComments, toast: "incidents:success.commentUpdated", failure: commentFailure("incidents:errors.commentUpdate") },
      ({ body }, { ctx, subject, formData }) => updateIncidentComment(ctx, subject.id, postedId(formData, "commentId"), { body }),
    ),
    [VIEW_INTENTS.deleteComment]: formIntent(
      { schema: NoFields, redirectTo: atComments, toast: "incidents:success.commentDeleted", failure: commentFailure("incidents:errors.commentDelete") },
      (_, { ctx, subject, formData }) => deleteIncidentComment(ctx, subject.id, postedId(formData, "commentId")),
    ),
    [VIEW_INTENTS.addFiles]: formIntent({ schema: NoFields, redirectTo: atFiles, toast: "incidents:success.fileUploaded" }, async (_, { ctx, subject, formData }) =>
      addIncidentFiles(ctx, subject.id, { files: await uploadsOf(formData, "files") }),
    ),
    [VIEW_INTENTS.deleteFile]: formIntent(
      { schema: NoFields, redirectTo: atFiles, toast: "incidents:success.fileDeleted", failure: { toast: "errors.file.deleteFailed", to: atFiles, inputErrors: false } },
      (_, { ctx, subject, formData }) => {
        const fileId = formData.get("fileId");
        return removeIncidentFile(ctx, subject.id, typeof fileId === "string" ? fileId : "");
      },
    ),
    [VIEW_INTENTS.downtime]: formIntent({ schema: DowntimeSchema, redirectTo: here, toast: "incidents:success.downtime" }, (_, { ctx, subject, formData }) =>
      setIncidentDowntime(ctx, subject.id, { equipmentDown: formData.get("equipmentDown") === "on", downtimeHours: String(formData.get("downtimeHours") ?? "") }),
    ),
    ...workIntents<Incident>(({ subject }) => ({ incidentId: subject.id }), atWork),
  },
});

export default function IncidentScreen() {
  const { incident, comments, events, assignees, assigneeQ, activity, maxBytes, work, today, now, inspection } = useLoaderData<typeof loader>();
  const resultFor = useResultFor<ViewIntent>();
  const location = useLocation();
  const edit = new URLSearchParams(location.search).get(EDIT_PARAM);
  const editing = edit && /^\d{1,9}$/.test(edit) ? Number(edit) : null;
  return (
    <>
      {/* Dialogs first: without JavaScript they come first in the tab order. */}
      <LazyIncidentDialogs incident={incident} assignees={assignees} assigneeQ={assigneeQ} resultFor={resultFor} />
      <DeleteCommentDialog comments={comments.items} />
      <DeleteFileDialog files={incident.files} />
      <DeleteWorkDialogs work={work} />
      <div className="mx-auto grid w-full min-w-0 max-w-5xl gap-6">
        <IncidentHeader incident={incident} />
        {inspection ? <OpenedByInspection inspection={inspection} /> : null}
        <IncidentDetails incident={incident} now={now} />
        <IncidentDescription incident={incident} />
        <IncidentFiles files={incident.files} maxBytes={maxBytes} lastResult={resultFor(VIEW_INTENTS.addFiles)} />
        <IncidentChecklist incident={incident} />
        <IncidentDuplicates incident={incident} />
        <IncidentComments
          comments={comments.items}
          total={comments.total}
          editing={editing}
          maxBytes={maxBytes}
          postResult={resultFor(VIEW_INTENTS.comment)}
          editResult={resultFor(VIEW_INTENTS.editComment)}
        />
        <WorkSection
          record="incident"
          work={work}
          today={today}
          timeResult={resultFor(VIEW_INTENTS.recordTime)}
          materialResult={resultFor(VIEW_INTENTS.addMaterial)}
          updateTimeResult={resultFor(VIEW_INTENTS.updateTime)}
          updateMaterialResult={resultFor(VIEW_INTENTS.updateMaterial)}
        />
        {incident.location.equipmentItemId ? <IncidentDowntime incident={incident} lastResult={resultFor(VIEW_INTENTS.downtime)} /> : null}
        <IncidentActivity active={activity} events={events.items} eventsTotal={events.total} comments={comments.items} />
      </div>
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";

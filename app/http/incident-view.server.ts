import { parseWithZod } from "@conform-to/zod/v4";
import { type ActionFunctionArgs, type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { z } from "zod";
import { controlCharacterErrors, formFailed, readFormData, redirectWithToast, serviceFailed, submitForm, uploadsOf } from "~/http/form-action.server";
import { serviceContext } from "~/http/route-context.server";
import { orErrorPage } from "~/http/route-params.server";
import { toastHeader } from "~/http/toast.server";
import { asDomainError } from "~/lib/errors";
import {
  ACTIVITY_PARAM,
  ACTIVITY_TABS,
  type ActivityTab,
  ASSIGNEE_PAGE_PARAM,
  ASSIGNEE_Q_PARAM,
  ASSIGNEES_PAGE_SIZE,
  COMMENT_SECTION,
  COMMENTS_SHOWN_PARAM,
  EVENTS_SHOWN_PARAM,
  incidentPath,
  MAX_COMMENTS_SHOWN,
  MAX_EVENTS_SHOWN,
  shownCount,
  VIEW_INTENTS,
} from "~/lib/incident-view";
import { intParam, searchParam } from "~/lib/list-query";
import { logger } from "~/lib/logger.server";
import { requireUser } from "~/modules/auth/guard.server";
import { COMMENTS_PAGE, EVENTS_PAGE } from "~/modules/incidents/constants";
import { findIncidentInReach, getIncidentView, listIncidentAssignees } from "~/modules/incidents/queries.server";
import {
  CommentSchema,
  DescriptionSchema,
  DuplicateSchema,
  SetPrioritySchema,
  SetStatusSchema,
  AssignSchema,
  TagSchema,
  TitleSchema,
} from "~/modules/incidents/schema";
import {
  addIncidentFiles,
  addIncidentTag,
  assignIncident,
  deleteIncidentComment,
  markIncidentDuplicate,
  postIncidentComment,
  removeIncidentFile,
  removeIncidentTag,
  setIncidentPriority,
  setIncidentStatus,
  updateIncidentComment,
  updateIncidentDescription,
  updateIncidentTitle,
} from "~/modules/incidents/service.server";

/**
 * The transport of the incident view (/incident/{id}, issue #12 part 3) and of its assign dialog's
 * user pages (/incident/{id}/assignee-options): reading the page's data, and the one verb of each
 * posted `intent`. Any incident the viewer cannot see (another entity's, outside their reach,
 * unknown, or a malformed id such as "abc" or 2147483648) is the "Incident not found" page.
 */

const NOT_FOUND_KEY = "incidents:errors.notFound";

/** The incident id of the address: 1 to 9 digits, anything else is "Incident not found". */
export function incidentRouteId(params: LoaderFunctionArgs["params"]): number {
  const value = params.id;
  const id = value && /^\d{1,9}$/.test(value) ? Number(value) : 0;
  if (!id) throw Response.json({ messageKey: NOT_FOUND_KEY }, { status: 404 });
  return id;
}

/** The page: the incident, its latest comments (oldest first) and events, and the assign dialog's users when it is open. */
export async function loadIncidentView({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const id = incidentRouteId(params);
  const ctx = await serviceContext({ request, context }, user);
  const search = new URL(request.url).searchParams;
  const assigning = search.get("dialog") === "assign";
  const assigneeQ = searchParam(search, ASSIGNEE_Q_PARAM);
  const assigneePage = Math.min(intParam(search, ASSIGNEE_PAGE_PARAM) ?? 1, 10_000);
  // One reach check for the page's three reads (the details, the comments, the events).
  const { incident, comments, events } = await orErrorPage(
    getIncidentView(ctx, id, {
      comments: shownCount(intParam(search, COMMENTS_SHOWN_PARAM), COMMENTS_PAGE, MAX_COMMENTS_SHOWN),
      events: shownCount(intParam(search, EVENTS_SHOWN_PARAM), EVENTS_PAGE, MAX_EVENTS_SHOWN),
    }),
  );
  // The assign dialog's users, when it is open (the incident is known to be in reach by now).
  const assignees = assigning ? await listIncidentAssignees(ctx, id, { q: assigneeQ, page: assigneePage, size: ASSIGNEES_PAGE_SIZE }) : null;
  const activityParam = search.get(ACTIVITY_PARAM);
  const activity: ActivityTab = (ACTIVITY_TABS as readonly string[]).includes(activityParam ?? "") ? (activityParam as ActivityTab) : "events";
  return {
    incident,
    comments,
    // Oldest first, like the comments.
    events: { items: [...events.items].reverse(), total: events.total },
    assignees,
    assigneeQ,
    activity,
    maxBytes: ctx.files.maxBytes,
    viewerId: user.id,
  };
}

/** GET /incident/{id}/assignee-options?q=&page=: a JSON page `{ items: [{ id, name, role }], total, page, size }`. */
export async function assigneeOptions({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const id = incidentRouteId(params);
  const ctx = await serviceContext({ request, context }, user);
  const search = new URL(request.url).searchParams;
  const page = await orErrorPage(
    listIncidentAssignees(ctx, id, {
      q: searchParam(search),
      page: Math.min(intParam(search, "page") ?? 1, 10_000),
      size: ASSIGNEES_PAGE_SIZE,
    }),
  );
  return Response.json(page, {
    headers: { "Cache-Control": "private, no-store" },
  });
}

async function redirectWithError(to: string, key: string) {
  return redirect(to, {
    headers: { "Set-Cookie": await toastHeader({ type: "error", key }) },
  });
}

/**
 * A comment's (or a file's) form: like `submitForm`, but a failure that is not the user's input (the
 * comment is gone, is someone else's, the server failed) is an error toast on the page (SPEC.md
 * section 8: failure to post, update or delete a comment), not an error beside a field. A form
 * without fields of its own (deleting a file) shows every failure as a toast.
 */
async function submitWithFailureToast<S extends z.ZodType>(
  formData: FormData,
  options: {
    intent: string;
    schema: S;
    redirectTo: string;
    toast: string;
    failure: string;
    failTo: string;
    inputErrorsBeside?: boolean;
  },
  save: (value: z.output<S>) => Promise<unknown>,
) {
  const submission = parseWithZod(formData, { schema: options.schema });
  const control = controlCharacterErrors(formData);
  if (control) return formFailed(options.intent, submission.reply({ fieldErrors: control }));
  if (submission.status !== "success") return formFailed(options.intent, submission.reply());
  try {
    await save(submission.value);
  } catch (error) {
    const known = asDomainError(error);
    if (known?.status === 400 && options.inputErrorsBeside !== false) return serviceFailed(options.intent, (reply) => submission.reply(reply), error);
    if (!known) logger().error({ err: error, intent: options.intent }, "incident view: could not save");
    return redirectWithError(options.failTo, options.failure);
  }
  return redirectWithToast(options.redirectTo, options.toast);
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

/** One verb per `intent`; success goes back to the page (dialog closed) with a toast. */
export async function incidentViewAction({ request, context, params }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const id = incidentRouteId(params);
  const ctx = await serviceContext({ request, context }, user);
  // Out of reach (or another entity's) is "Incident not found" whatever is posted, before the body is read.
  await orErrorPage(findIncidentInReach(ctx, id));
  const formData = await readFormData(request, ctx.files.maxBytes);
  const here = incidentPath(id);
  const comments = `${here}#${COMMENT_SECTION}`;
  const intent = formData.get("intent");
  switch (intent) {
    case VIEW_INTENTS.status:
      return submitForm(
        formData,
        {
          intent,
          schema: SetStatusSchema,
          redirectTo: here,
          toast: "incidents:success.status",
        },
        (value) => setIncidentStatus(ctx, id, value),
      );
    case VIEW_INTENTS.priority:
      return submitForm(
        formData,
        {
          intent,
          schema: SetPrioritySchema,
          redirectTo: here,
          toast: "incidents:success.priority",
        },
        (value) => setIncidentPriority(ctx, id, value),
      );
    case VIEW_INTENTS.assign:
      return submitForm(
        formData,
        {
          intent,
          schema: AssignSchema,
          redirectTo: here,
          toast: "incidents:success.assignee",
        },
        (value) => assignIncident(ctx, id, value),
      );
    case VIEW_INTENTS.addTag:
      // The tags dialog stays open: several tags are often added or removed in a row.
      return submitForm(
        formData,
        {
          intent,
          schema: TagSchema,
          redirectTo: `${here}?dialog=tags`,
          toast: "incidents:success.tagAdded",
        },
        (value) => addIncidentTag(ctx, id, value),
      );
    case VIEW_INTENTS.removeTag:
      return submitForm(
        formData,
        {
          intent,
          schema: RemoveTagSchema,
          redirectTo: `${here}?dialog=tags`,
          toast: "incidents:success.tagRemoved",
        },
        (value) => removeIncidentTag(ctx, id, value),
      );
    case VIEW_INTENTS.title:
      return submitForm(
        formData,
        {
          intent,
          schema: TitleSchema,
          redirectTo: here,
          toast: "incidents:success.title",
        },
        (value) => updateIncidentTitle(ctx, id, value),
      );
    case VIEW_INTENTS.description:
      return submitForm(
        formData,
        {
          intent,
          schema: DescriptionSchema,
          redirectTo: here,
          toast: "incidents:success.description",
        },
        (value) => updateIncidentDescription(ctx, id, value),
      );
    case VIEW_INTENTS.duplicate:
      return submitForm(
        formData,
        {
          intent,
          schema: DuplicateSchema,
          redirectTo: here,
          toast: "incidents:success.duplicate",
        },
        (value) => markIncidentDuplicate(ctx, id, value),
      );
    case VIEW_INTENTS.comment:
      return submitWithFailureToast(
        formData,
        {
          intent,
          schema: CommentSchema,
          redirectTo: comments,
          toast: "incidents:success.commentPosted",
          failure: "incidents:errors.commentPost",
          failTo: comments,
        },
        async (value) =>
          postIncidentComment(ctx, id, {
            body: value.body,
            files: await uploadsOf(formData, "files"),
          }),
      );
    case VIEW_INTENTS.editComment:
      return submitWithFailureToast(
        formData,
        {
          intent,
          schema: CommentSchema,
          redirectTo: comments,
          toast: "incidents:success.commentUpdated",
          failure: "incidents:errors.commentUpdate",
          failTo: comments,
        },
        (value) =>
          updateIncidentComment(ctx, id, postedId(formData, "commentId"), {
            body: value.body,
          }),
      );
    case VIEW_INTENTS.deleteComment:
      return submitWithFailureToast(
        formData,
        {
          intent,
          schema: NoFields,
          redirectTo: comments,
          toast: "incidents:success.commentDeleted",
          failure: "incidents:errors.commentDelete",
          failTo: comments,
        },
        () => deleteIncidentComment(ctx, id, postedId(formData, "commentId")),
      );
    case VIEW_INTENTS.addFiles:
      return submitForm(
        formData,
        {
          intent,
          schema: NoFields,
          redirectTo: `${here}#files`,
          toast: "incidents:success.fileUploaded",
        },
        async () =>
          addIncidentFiles(ctx, id, {
            files: await uploadsOf(formData, "files"),
          }),
      );
    case VIEW_INTENTS.deleteFile: {
      const fileId = formData.get("fileId");
      return submitWithFailureToast(
        formData,
        {
          intent,
          schema: NoFields,
          redirectTo: `${here}#files`,
          toast: "incidents:success.fileDeleted",
          failure: "errors.file.deleteFailed",
          failTo: `${here}#files`,
          inputErrorsBeside: false,
        },
        () => removeIncidentFile(ctx, id, typeof fileId === "string" ? fileId : ""),
      );
    }
    default:
      throw new Response("Bad Request", { status: 400 });
  }
}

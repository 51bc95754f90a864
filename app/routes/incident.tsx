import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData, useLocation } from "@remix-run/react";
import { useResultFor } from "~/components/forms/zod-form";
import { IncidentActivity } from "~/components/incidents/view/incident-activity";
import { DeleteCommentDialog, IncidentComments } from "~/components/incidents/view/incident-comments";
import { IncidentDialogs } from "~/components/incidents/view/incident-dialogs";
import { DeleteFileDialog, IncidentFiles } from "~/components/incidents/view/incident-files";
import { IncidentChecklist, IncidentDescription, IncidentDetails, IncidentDuplicates, IncidentHeader } from "~/components/incidents/view/incident-header";
import { incidentViewAction, loadIncidentView } from "~/http/incident-view.server";
import { EDIT_PARAM, VIEW_INTENTS, type ViewIntent } from "~/lib/incident-view";

/**
 * /incident/{id} (also /incident/{id}#commentSection), SPEC.md section 2: the incident's details,
 * images and files, checklist answers, duplicates, comments, events and history, and the dialogs
 * (`?dialog=status|assign|priority|tags|title|description|duplicate`), each a plain form posting one
 * `intent` (app/http/incident-view.server.ts). An incident the viewer cannot see is "Incident not found".
 */
export const loader = (args: LoaderFunctionArgs) => loadIncidentView(args);
export const action = (args: ActionFunctionArgs) => incidentViewAction(args);

export default function IncidentScreen() {
  const { incident, comments, events, assignees, assigneeQ, activity, maxBytes } = useLoaderData<typeof loader>();
  const resultFor = useResultFor<ViewIntent>();
  const location = useLocation();
  const edit = new URLSearchParams(location.search).get(EDIT_PARAM);
  const editing = edit && /^\d{1,9}$/.test(edit) ? Number(edit) : null;
  return (
    <>
      {/* Dialogs first: without JavaScript they come first in the tab order. */}
      <IncidentDialogs incident={incident} assignees={assignees} assigneeQ={assigneeQ} resultFor={resultFor} />
      <DeleteCommentDialog comments={comments.items} />
      <DeleteFileDialog files={incident.files} />
      <div className="mx-auto grid w-full min-w-0 max-w-5xl gap-6">
        <IncidentHeader incident={incident} />
        <IncidentDetails incident={incident} />
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
        <IncidentActivity active={activity} events={events.items} eventsTotal={events.total} comments={comments.items} />
      </div>
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";

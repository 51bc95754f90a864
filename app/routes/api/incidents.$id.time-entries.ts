import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, created, methodNotAllowed } from "~/http/api.server";
import { incidentIdParam } from "~/http/incident-api.server";
import { workBody } from "~/http/work-api.server";
import { getWork } from "~/modules/time-costs/queries.server";
import type { TimeEntryInput } from "~/modules/time-costs/schema";
import { recordTime } from "~/modules/time-costs/service.server";

/**
 * GET /api/incidents/{id}/time-entries: the incident's time entries, oldest first (at most 200), as
 * `[{ id, person: { id, name }, workedOn, minutes, note, hourlyRate, cost, editable }]` with X-Total-Count (every entry)
 * and X-Total-Minutes (their sum).
 */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ params, ctx }) => {
  const work = await getWork(ctx, {
    incidentId: incidentIdParam(params),
  });
  return Response.json(work.entries, {
    headers: {
      "X-Total-Count": String(work.totals.entries),
      "X-Total-Minutes": String(work.totals.minutes),
    },
  });
});

/**
 * POST /api/incidents/{id}/time-entries `{ workedOn, hours, minutes, note?, userId? }`: records time
 * (one's own; a manager's also for another person the incident may be assigned to). 201 with `{ id }`.
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, params, ctx }) => {
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  return created(await recordTime(ctx, { incidentId: incidentIdParam(params) }, workBody<TimeEntryInput>(request)));
});

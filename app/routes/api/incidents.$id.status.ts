import type { ActionFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed } from "~/http/api.server";
import { incidentIdParam, verbBody } from "~/http/incident-api.server";
import type { SetStatusInput } from "~/modules/incidents/schema";
import { setIncidentStatus } from "~/modules/incidents/service.server";

/**
 * PUT /api/incidents/{id}/status { status: 0 | 1 | 2 | 3 | 4 } (Pending, In Progress, Done, Rejected,
 * Archived): event 2 when it changes. Answers `{ id, shortId, status, priority, assigneeId, title,
 * description, tags }`.
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, params, ctx }) => {
  if (request.method !== "PUT") return methodNotAllowed("PUT");
  return setIncidentStatus(ctx, incidentIdParam(params), verbBody<SetStatusInput>(request));
});

export const loader = apiRoute(() => methodNotAllowed("PUT"));

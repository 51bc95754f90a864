import type { ActionFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed } from "~/http/api.server";
import { incidentIdParam, verbBody } from "~/http/incident-api.server";
import type { AssignInput } from "~/modules/incidents/schema";
import { assignIncident } from "~/modules/incidents/service.server";

/**
 * PUT /api/incidents/{id}/assignee { assigneeId: <user id> | null }: assigns the incident to an active
 * user who reaches its location (see GET .../assignees), or unassigns it (null): event 1. Anyone else
 * is 400 ASSIGNEE_NOT_ALLOWED. Answers the changed incident's fields.
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, params, ctx }) => {
  if (request.method !== "PUT") return methodNotAllowed("PUT");
  return assignIncident(ctx, incidentIdParam(params), verbBody<AssignInput>(request));
});

export const loader = apiRoute(() => methodNotAllowed("PUT"));

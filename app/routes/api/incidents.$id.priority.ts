import type { ActionFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed } from "~/http/api.server";
import { incidentIdParam, verbBody } from "~/http/incident-api.server";
import type { SetPriorityInput } from "~/modules/incidents/schema";
import { setIncidentPriority } from "~/modules/incidents/service.server";

/**
 * PUT /api/incidents/{id}/priority { priority: 0 | 1 | 2 | 3 | null } (Low, Medium, High, Critical,
 * null: Not Selected): event 3 when it changes. Answers the changed incident's fields.
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, params, ctx }) => {
  if (request.method !== "PUT") return methodNotAllowed("PUT");
  return setIncidentPriority(ctx, incidentIdParam(params), verbBody<SetPriorityInput>(request));
});

export const loader = apiRoute(() => methodNotAllowed("PUT"));

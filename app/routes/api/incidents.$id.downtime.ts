import type { ActionFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed } from "~/http/api.server";
import { incidentIdParam, verbBody } from "~/http/incident-api.server";
import type { DowntimeInput } from "~/modules/incidents/schema";
import { setIncidentDowntime } from "~/modules/incidents/service.server";

/**
 * PUT /api/incidents/{id}/downtime { equipmentDown, downtimeMinutes? | downtimeHours? } (decision 066):
 * marks the incident's equipment out of service (downtime from the report to Done) or back in service,
 * with the downtime set by hand in whole minutes or hours ("1,5"; not both; null: report to Done), at
 * most a year. Answers `{ id, shortId, equipmentDown, downtimeMinutes }`; an incident without equipment
 * is 400 INCIDENT_HAS_NO_EQUIPMENT. GET /api/incidents/{id} reads both fields.
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, params, ctx }) => {
  if (request.method !== "PUT") return methodNotAllowed("PUT");
  return setIncidentDowntime(ctx, incidentIdParam(params), verbBody<DowntimeInput>(request));
});

export const loader = apiRoute(() => methodNotAllowed("PUT"));

import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed } from "~/http/api.server";
import { incidentIdParam, verbBody } from "~/http/incident-api.server";
import { type PatchIncidentInput, updateIncidentFields } from "~/modules/incidents/edit.server";
import { getIncident } from "~/modules/incidents/queries.server";

/**
 * GET /api/incidents/{id}: the incident (details, location, reporters, files, checklist answers,
 * duplicates; comments and events have their own calls). Another entity's id, one outside the caller's
 * reach, an archived one or a malformed id is 404 INCIDENT_NOT_FOUND.
 */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ params, ctx }) => getIncident(ctx, incidentIdParam(params)));

/**
 * PATCH /api/incidents/{id} { title?, description? }: changes the title (required when given, at most
 * 200 characters; event 7) and/or the description (null or "" empties it; event 8), all or nothing.
 * Answers `{ id, shortId, status, priority, assigneeId, title, description, tags }`. Neither field is
 * 400 NOTHING_TO_CHANGE.
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, params, ctx }) => {
  if (request.method !== "PATCH") return methodNotAllowed("GET, PATCH");
  return updateIncidentFields(ctx, incidentIdParam(params), verbBody<PatchIncidentInput>(request));
});

import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, idParam, jsonBody, methodNotAllowed } from "~/http/api.server";
import { getIncidentTypeForEdit, incidentTypeNotFound } from "~/modules/incident-types/queries.server";
import { IncidentTypeSchema } from "~/modules/incident-types/schema";
import { archiveIncidentType, updateIncidentType } from "~/modules/incident-types/service.server";

/**
 * GET /api/incident-types/{id} (managers and administrators): the incident type with its default
 * assignees, room types, equipment, rooms and checklist; another entity's, an archived or a malformed
 * id is 404 INCIDENT_TYPE_NOT_FOUND.
 */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ params, ctx }) => {
  const id = idParam(params.id);
  if (id === null) throw incidentTypeNotFound();
  return getIncidentTypeForEdit(ctx, id);
});

/**
 * PUT /api/incident-types/{id} with the body of POST /api/incident-types replaces the type (its links
 * and checklist included; rooms outside the editor's reach keep their link) and answers it. DELETE
 * archives it: it leaves the lists and pickers and is removed from Pending and In Progress incidents
 * (an event each), Done and Rejected ones keep it; answers `{ incidentsUpdated }`.
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, params, ctx }) => {
  if (request.method !== "PUT" && request.method !== "DELETE") return methodNotAllowed("GET, PUT, DELETE");
  const id = idParam(params.id);
  if (id === null) throw incidentTypeNotFound();
  if (request.method === "DELETE") return archiveIncidentType(ctx, id);
  return updateIncidentType(ctx, id, jsonBody(request, IncidentTypeSchema));
});

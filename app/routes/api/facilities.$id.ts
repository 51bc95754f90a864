import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, idParam, methodNotAllowed, jsonBody } from "~/http/api.server";
import { facilityNotFound, getFacility } from "~/modules/facilities/queries.server";
import { FacilitySchema } from "~/modules/facilities/schema";
import { archiveFacility, updateFacility } from "~/modules/facilities/service.server";

/** GET /api/facilities/{id}: one facility (another entity's id is 404 FACILITY_NOT_FOUND). */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ params, ctx }) => {
  const id = idParam(params.id);
  if (id === null) throw facilityNotFound();
  return getFacility(ctx, id);
});

/**
 * PUT /api/facilities/{id} { name, description } answers the facility; DELETE archives it with its
 * buildings, rooms, equipment items and report identifiers, rejects their open incidents and answers
 * the counts `{ buildings, rooms, equipmentItems, reportIdentifiers, incidentsRejected }`.
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, params, ctx }) => {
  if (request.method !== "PUT" && request.method !== "DELETE") return methodNotAllowed("GET, PUT, DELETE");
  const id = idParam(params.id);
  if (id === null) throw facilityNotFound();
  if (request.method === "DELETE") return archiveFacility(ctx, id);
  return updateFacility(ctx, id, jsonBody(request, FacilitySchema));
});

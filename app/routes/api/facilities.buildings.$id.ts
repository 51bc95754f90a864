import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, idParam, methodNotAllowed, jsonBody } from "~/http/api.server";
import { buildingNotFound, getBuilding } from "~/modules/facilities/queries.server";
import { BuildingSchema } from "~/modules/facilities/schema";
import { archiveBuilding, updateBuilding } from "~/modules/facilities/service.server";

/** GET /api/facilities/buildings/{id} (another entity's id is 404 BUILDING_NOT_FOUND). */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ params, ctx }) => {
  const id = idParam(params.id);
  if (id === null) throw buildingNotFound();
  return getBuilding(ctx, id);
});

/**
 * PUT /api/facilities/buildings/{id} (the building fields) answers the building; DELETE archives it
 * with its rooms, equipment items and report identifiers and answers the cascade counts.
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, params, ctx }) => {
  if (request.method !== "PUT" && request.method !== "DELETE") return methodNotAllowed("GET, PUT, DELETE");
  const id = idParam(params.id);
  if (id === null) throw buildingNotFound();
  if (request.method === "DELETE") return archiveBuilding(ctx, id);
  return updateBuilding(ctx, id, jsonBody(request, BuildingSchema));
});

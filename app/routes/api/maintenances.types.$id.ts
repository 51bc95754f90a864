import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, idParam, jsonBody, methodNotAllowed } from "~/http/api.server";
import { getMaintenanceType, maintenanceTypeNotFound } from "~/modules/maintenance/queries.server";
import { MaintenanceTypeSchema } from "~/modules/maintenance/schema";
import { archiveMaintenanceType, updateMaintenanceType } from "~/modules/maintenance/service.server";

/** GET /api/maintenances/types/{id}: the type with its default assignees, rooms and equipment items (another entity's is 404 MAINTENANCE_TYPE_NOT_FOUND). */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ params, ctx }) => {
  const id = idParam(params.id);
  if (id === null) throw maintenanceTypeNotFound();
  return getMaintenanceType(ctx, id);
});

/**
 * PUT /api/maintenances/types/{id} with the body of POST replaces the type (rooms and items outside the
 * caller's reach keep their place) and answers it. DELETE archives it with its plans and answers
 * `{ plannedMaintenancesArchived }`.
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, params, ctx }) => {
  if (request.method !== "PUT" && request.method !== "DELETE") return methodNotAllowed("GET, PUT, DELETE");
  const id = idParam(params.id);
  if (id === null) throw maintenanceTypeNotFound();
  if (request.method === "DELETE") return archiveMaintenanceType(ctx, id);
  return updateMaintenanceType(ctx, id, jsonBody(request, MaintenanceTypeSchema));
});

import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, idParam, jsonBody, methodNotAllowed } from "~/http/api.server";
import { getPlannedMaintenance, plannedMaintenanceNotFound } from "~/modules/maintenance/queries.server";
import { PlannedMaintenanceSchema } from "~/modules/maintenance/schema";
import { archivePlannedMaintenance, updatePlannedMaintenance } from "~/modules/maintenance/service.server";

/** GET /api/maintenances/planned/{id}: the plan with its assignees and its selection within the caller's reach (another entity's is 404 PLANNED_MAINTENANCE_NOT_FOUND). */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ params, ctx }) => {
  const id = idParam(params.id);
  if (id === null) throw plannedMaintenanceNotFound();
  return getPlannedMaintenance(ctx, id);
});

/**
 * PUT /api/maintenances/planned/{id} with the body of POST replaces the plan (locations outside the
 * caller's reach stay) and its future pending tasks; DELETE archives it, removes its pending tasks from
 * today on and answers `{ tasksRemoved }`.
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, params, ctx }) => {
  if (request.method !== "PUT" && request.method !== "DELETE") return methodNotAllowed("GET, PUT, DELETE");
  const id = idParam(params.id);
  if (id === null) throw plannedMaintenanceNotFound();
  if (request.method === "DELETE") return archivePlannedMaintenance(ctx, id);
  return updatePlannedMaintenance(ctx, id, jsonBody(request, PlannedMaintenanceSchema));
});

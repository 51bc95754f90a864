import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, idParam, jsonBody, methodNotAllowed } from "~/http/api.server";
import { ChecklistSchema } from "~/modules/maintenance/inspection-schema";
import { listChecks, replaceMaintenanceChecklist } from "~/modules/maintenance/inspections.server";
import { getMaintenanceType, maintenanceTypeNotFound } from "~/modules/maintenance/queries.server";

/**
 * GET /api/maintenances/types/{id}/checklist: the type's checks in order (an inspection's checklist,
 * issue 63); another entity's type is 404 MAINTENANCE_TYPE_NOT_FOUND.
 */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ params, ctx }) => {
  const id = idParam(params.id);
  if (id === null) throw maintenanceTypeNotFound();
  await getMaintenanceType(ctx, id);
  return listChecks(ctx, id);
});

/**
 * PUT /api/maintenances/types/{id}/checklist with `{ checks }` replaces the checklist (a check with the
 * id of one of the type's checks is changed, one without is added, the others are removed) and answers it.
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, params, ctx }) => {
  if (request.method !== "PUT") return methodNotAllowed("GET, PUT");
  const id = idParam(params.id);
  if (id === null) throw maintenanceTypeNotFound();
  return replaceMaintenanceChecklist(ctx, id, jsonBody(request, ChecklistSchema));
});

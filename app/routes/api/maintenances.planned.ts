import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, created, jsonBody, listJson, methodNotAllowed } from "~/http/api.server";
import { ValidationError } from "~/lib/errors";
import { parseListQuery } from "~/lib/list-query";
import { listPlannedMaintenances, PLANNED_MAINTENANCE_SORTS, type PlannedMaintenanceFilters } from "~/modules/maintenance/queries.server";
import { PlannedMaintenanceSchema } from "~/modules/maintenance/schema";
import { createPlannedMaintenance } from "~/modules/maintenance/service.server";

/** Reads the filters `maintenanceTypeId`, `facilityId` and `assigneeId`: one positive id each, anything else a 400. */
function planFilters(params: URLSearchParams): PlannedMaintenanceFilters {
  const filters: Record<string, number | null> = {};
  const errors: Record<string, string[]> = {};
  for (const name of ["maintenanceTypeId", "facilityId", "assigneeId"]) {
    const values = params.getAll(name);
    if (values.length === 0) filters[name] = null;
    else if (values.length === 1 && /^[1-9]\d{0,8}$/.test(values[0])) filters[name] = Number(values[0]);
    else errors[name] = ["common:validation.invalid"];
  }
  if (Object.keys(errors).length) throw new ValidationError(errors, "errors.list.invalid", "INVALID_LIST_QUERY");
  return filters;
}

/**
 * GET /api/maintenances/planned?page&size&sort&dir&q&maintenanceTypeId&facilityId&assigneeId (managers
 * and administrators): the planned maintenances of the caller's entity, archived ones left out, with
 * X-Total-Count. `sort` is one of name (default), type, startDate, endDate; `q` searches the plan's and
 * its type's names.
 */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ request, ctx }) => {
  const params = new URL(request.url).searchParams;
  const query = parseListQuery(params, { sorts: PLANNED_MAINTENANCE_SORTS, defaultSort: "name", mode: "api" });
  return listJson(await listPlannedMaintenances(ctx, query, planFilters(params)));
});

/**
 * POST /api/maintenances/planned { name, maintenanceTypeId, startDate, endDate (YYYY-MM-DD, local),
 * timeOfDay (HH:MM, local), occurrenceUnit, occurrenceInterval, instructions, assigneeIds, facilityIds,
 * buildingIds, roomIds, equipmentItemIds } (at least one location): 201 with the plan; its tasks are
 * generated in the same transaction.
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, ctx }) => {
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  return created(await createPlannedMaintenance(ctx, jsonBody(request, PlannedMaintenanceSchema)));
});

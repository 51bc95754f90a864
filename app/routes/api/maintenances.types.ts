import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, created, jsonBody, listJson, methodNotAllowed } from "~/http/api.server";
import { parseListQuery } from "~/lib/list-query";
import { listMaintenanceTypes, MAINTENANCE_TYPE_SORTS } from "~/modules/maintenance/queries.server";
import { MaintenanceTypeSchema } from "~/modules/maintenance/schema";
import { createMaintenanceType } from "~/modules/maintenance/service.server";

/**
 * GET /api/maintenances/types?page&size&sort&dir&q (managers and administrators): the maintenance types
 * of the caller's entity, archived ones left out, as a JSON array with X-Total-Count. `sort` is `name`
 * (default) or `occurrence`; `q` searches the name and the tags.
 */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ request, ctx }) => {
  const params = new URL(request.url).searchParams;
  return listJson(await listMaintenanceTypes(ctx, parseListQuery(params, { sorts: MAINTENANCE_TYPE_SORTS, defaultSort: "name", mode: "api" })));
});

/**
 * POST /api/maintenances/types { name, tags, occurrenceUnit (0 once, 1 day, 2 week, 3 month, 4 year),
 * occurrenceInterval, instructions, assigneeIds, roomIds, equipmentItemIds }: 201 with the type. Ids of
 * another entity, or locations outside the caller's reach, are 400 REFERENCE_NOT_FOUND.
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, ctx }) => {
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  return created(await createMaintenanceType(ctx, jsonBody(request, MaintenanceTypeSchema)));
});

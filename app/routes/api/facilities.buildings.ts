import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, created, listJson, methodNotAllowed, jsonBody } from "~/http/api.server";
import { intListParam, parseListQuery } from "~/lib/list-query";
import { BUILDING_SORTS, listBuildings } from "~/modules/facilities/queries.server";
import { BuildingSchema } from "~/modules/facilities/schema";
import { createBuilding } from "~/modules/facilities/service.server";

/** GET /api/facilities/buildings?facilityIds=1,2&page&size&sort&dir&q (X-Total-Count). */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ request, ctx }) => {
  const params = new URL(request.url).searchParams;
  const query = parseListQuery(params, { sorts: BUILDING_SORTS, defaultSort: "name", mode: "api" });
  return listJson(await listBuildings(ctx, query, { facilityIds: intListParam(params, "facilityIds") }));
});

/** POST /api/facilities/buildings { name, description, facilityId, address fields }: 201 with the building. */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, ctx }) => {
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  return created(await createBuilding(ctx, jsonBody(request, BuildingSchema)));
});

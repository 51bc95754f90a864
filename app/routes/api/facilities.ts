import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, created, listJson, methodNotAllowed, jsonBody } from "~/http/api.server";
import { parseListQuery } from "~/lib/list-query";
import { FACILITY_SORTS, listFacilities } from "~/modules/facilities/queries.server";
import { FacilitySchema } from "~/modules/facilities/schema";
import { createFacility } from "~/modules/facilities/service.server";

/** GET /api/facilities?page&size&sort&dir&q: the facilities of the caller's entity (X-Total-Count). */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ request, ctx }) => {
  const params = new URL(request.url).searchParams;
  return listJson(await listFacilities(ctx, parseListQuery(params, { sorts: FACILITY_SORTS, defaultSort: "name", mode: "api" })));
});

/** POST /api/facilities { name, description } (managers and administrators): 201 with the facility. */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, ctx }) => {
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  return created(await createFacility(ctx, jsonBody(request, FacilitySchema)));
});

import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { deferred } from "~/core/input";
import { apiRoute, created, listJson, methodNotAllowed, parseJson } from "~/http/api.server";
import { intListParam, parseListQuery } from "~/lib/list-query";
import { CreateEquipmentTypeBodySchema } from "~/modules/equipment/api-body";
import { EQUIPMENT_TYPE_SORTS, listEquipmentTypes } from "~/modules/equipment/queries.server";
import { createEquipmentType } from "~/modules/equipment/service.server";

/** GET /api/equipments/type?categoryIds=1,2&page&size&sort&dir&q: generic equipment (X-Total-Count). */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ request, ctx }) => {
  const params = new URL(request.url).searchParams;
  const query = parseListQuery(params, { sorts: EQUIPMENT_TYPE_SORTS, defaultSort: "name", mode: "api" });
  return listJson(await listEquipmentTypes(ctx, query, { categoryIds: intListParam(params, "categoryIds") }));
});

/**
 * POST /api/equipments/type { equipmentName, notes, categoryId, files: [{ name, data }], tags:
 * [{ label }], incidentTypes }: 201 with the generic equipment.
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, ctx }) => {
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  return created(await createEquipmentType(ctx, deferred(() => parseJson(request, CreateEquipmentTypeBodySchema))));
});

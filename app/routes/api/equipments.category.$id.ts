import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { deferred } from "~/core/input";
import { apiRoute, idParam, methodNotAllowed, parseJson } from "~/http/api.server";
import { CategoryBodySchema, checkCategoryEntity } from "~/modules/equipment/api-body";
import { categoryNotFound, getCategory } from "~/modules/equipment/queries.server";
import { archiveCategory, updateCategory } from "~/modules/equipment/service.server";

/** GET /api/equipments/category/{id} (another entity's id is 404 CATEGORY_NOT_FOUND). */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ params, ctx }) => {
  const id = idParam(params.id);
  if (id === null) throw categoryNotFound();
  return getCategory(ctx, id);
});

/**
 * PUT /api/equipments/category/{id} { categoryName, tags } answers the category; DELETE archives it
 * with its generic equipment (items leave the rooms, open incidents rejected) and answers the counts.
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, params, ctx }) => {
  if (request.method !== "PUT" && request.method !== "DELETE") return methodNotAllowed("GET, PUT, DELETE");
  const id = idParam(params.id);
  if (id === null) throw categoryNotFound();
  if (request.method === "DELETE") return archiveCategory(ctx, id);
  const body = deferred(async () => checkCategoryEntity(await parseJson(request, CategoryBodySchema), ctx.entityId));
  return updateCategory(ctx, id, body);
});

import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { deferred } from "~/core/input";
import { apiRoute, created, listJson, methodNotAllowed, parseJson } from "~/http/api.server";
import { parseListQuery } from "~/lib/list-query";
import { CategoryBodySchema, checkCategoryEntity } from "~/modules/equipment/api-body";
import { CATEGORY_SORTS, listCategories } from "~/modules/equipment/queries.server";
import { createCategory } from "~/modules/equipment/service.server";

/** GET /api/equipments/category?page&size&sort&dir&q (X-Total-Count). */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ request, ctx }) => {
  const params = new URL(request.url).searchParams;
  return listJson(await listCategories(ctx, parseListQuery(params, { sorts: CATEGORY_SORTS, defaultSort: "name", mode: "api" })));
});

/**
 * POST /api/equipments/category { categoryName, entityId, tags }: 201 with the category. `entityId`
 * may be left out; another entity's id is 403 FORBIDDEN.
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, ctx }) => {
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  const body = deferred(async () => checkCategoryEntity(await parseJson(request, CategoryBodySchema), ctx.entityId));
  return created(await createCategory(ctx, body));
});

import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, listJson, methodNotAllowed } from "~/http/api.server";
import { intListParam, parseListQuery } from "~/lib/list-query";
import { listEquipmentItems } from "~/modules/equipment/queries.server";

/**
 * GET /api/equipments?roomIds=1,2&page&size: the specific equipment items of those rooms (all rooms
 * without the parameter), each with its internal reference and report identifier, by room; one page
 * (25 rows unless `size` says, at most 100) and the total in X-Total-Count.
 */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ request, ctx }) => {
  const params = new URL(request.url).searchParams;
  const query = parseListQuery(params, { sorts: ["room"], defaultSort: "room", mode: "api" });
  return listJson(await listEquipmentItems(ctx, { roomIds: intListParam(params, "roomIds") }, query));
});

export const action = apiRoute(() => methodNotAllowed("GET"));

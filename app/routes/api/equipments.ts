import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, listJson, methodNotAllowed } from "~/http/api.server";
import { intListParam } from "~/lib/list-query";
import { listEquipmentItems } from "~/modules/equipment/queries.server";

/**
 * GET /api/equipments?roomIds=1,2: the specific equipment items of those rooms (all rooms without the
 * parameter), each with its internal reference and report identifier; the whole list (X-Total-Count).
 */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ request, ctx }) => {
  const items = await listEquipmentItems(ctx, { roomIds: intListParam(new URL(request.url).searchParams, "roomIds") });
  return listJson({ items, total: items.length });
});

export const action = apiRoute(() => methodNotAllowed("GET"));

import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, idParam, methodNotAllowed } from "~/http/api.server";
import { getEquipmentItemRecord } from "~/modules/equipment/item-queries.server";
import { equipmentItemNotFound } from "~/modules/reliability/queries.server";

/**
 * GET /api/equipments/{id}/children: the active items that belong to the item (within the caller's
 * reach); an item of another entity or out of reach is 404 EQUIPMENT_ITEM_NOT_FOUND.
 */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ params, ctx }) => {
  const id = idParam(params.id);
  if (id === null) throw equipmentItemNotFound();
  return (await getEquipmentItemRecord(ctx, id)).children;
});

export const action = apiRoute(() => methodNotAllowed("GET"));

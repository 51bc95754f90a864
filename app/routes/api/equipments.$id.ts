import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { deferred } from "~/core/input";
import { apiRoute, idParam, methodNotAllowed, parseJson } from "~/http/api.server";
import { UpdateEquipmentItemBodySchema } from "~/modules/equipment/api-body";
import { getEquipmentItemRecord } from "~/modules/equipment/item-queries.server";
import { updateEquipmentItem } from "~/modules/equipment/items.server";
import { equipmentItemNotFound } from "~/modules/reliability/queries.server";

/**
 * GET /api/equipments/{id}: an equipment item's record (issue 63): its fields, parent, children and
 * documents and photos; an item of another entity or out of the caller's reach is 404
 * EQUIPMENT_ITEM_NOT_FOUND.
 */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ params, ctx }) => {
  const id = idParam(params.id);
  if (id === null) throw equipmentItemNotFound();
  return getEquipmentItemRecord(ctx, id);
});

/**
 * PUT /api/equipments/{id} { serialNumber, manufacturer, model, installedOn, warrantyEndsOn, supplier,
 * notes, parentItemId, deletedFiles, newFiles } replaces the record and answers it (a parent loop is 400
 * PARENT_LOOP).
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, params, ctx }) => {
  if (request.method !== "PUT") return methodNotAllowed("GET, PUT");
  const id = idParam(params.id);
  if (id === null) throw equipmentItemNotFound();
  return updateEquipmentItem(ctx, id, deferred(() => parseJson(request, UpdateEquipmentItemBodySchema)));
});

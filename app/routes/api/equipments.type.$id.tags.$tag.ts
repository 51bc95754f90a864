import type { ActionFunctionArgs } from "@remix-run/node";
import { apiRoute, idParam, methodNotAllowed } from "~/http/api.server";
import { equipmentTypeNotFound } from "~/modules/equipment/queries.server";
import { removeEquipmentTypeTag } from "~/modules/equipment/service.server";

/**
 * DELETE /api/equipments/type/{id}/tags/{tag}: removes the tag (ignoring case) and answers the generic
 * equipment; a tag it does not have is 400 TAG_NOT_FOUND.
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, params, ctx }) => {
  if (request.method !== "DELETE") return methodNotAllowed("DELETE");
  const id = idParam(params.id);
  if (id === null) throw equipmentTypeNotFound();
  return removeEquipmentTypeTag(ctx, id, params.tag ?? "");
});

export const loader = apiRoute(() => methodNotAllowed("DELETE"));

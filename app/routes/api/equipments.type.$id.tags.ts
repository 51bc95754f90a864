import type { ActionFunctionArgs } from "@remix-run/node";
import { apiRoute, created, idParam, methodNotAllowed, jsonBody } from "~/http/api.server";
import { TagBodySchema } from "~/modules/equipment/api-body";
import { equipmentTypeNotFound } from "~/modules/equipment/queries.server";
import { addEquipmentTypeTag } from "~/modules/equipment/service.server";

/**
 * POST /api/equipments/type/{id}/tags { label }: adds a tag (a tag already there, ignoring case, is
 * kept once); 201 with the generic equipment. A fourth tag is 400 TOO_MANY_TAGS.
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, params, ctx }) => {
  if (request.method !== "POST") return methodNotAllowed("POST");
  const id = idParam(params.id);
  if (id === null) throw equipmentTypeNotFound();
  return created(await addEquipmentTypeTag(ctx, id, jsonBody(request, TagBodySchema.transform((body) => body.label))));
});

export const loader = apiRoute(() => methodNotAllowed("POST"));

import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { deferred } from "~/core/input";
import { apiRoute, idParam, methodNotAllowed, parseJson } from "~/http/api.server";
import { UpdateEquipmentTypeBodySchema } from "~/modules/equipment/api-body";
import { equipmentTypeNotFound, getEquipmentType } from "~/modules/equipment/queries.server";
import { archiveEquipmentType, updateEquipmentType } from "~/modules/equipment/service.server";

/** GET /api/equipments/type/{id} (another entity's id is 404 EQUIPMENT_TYPE_NOT_FOUND). */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ params, ctx }) => {
  const id = idParam(params.id);
  if (id === null) throw equipmentTypeNotFound();
  return getEquipmentType(ctx, id);
});

/**
 * PUT /api/equipments/type/{id} { equipmentName, notes, incidentTypes, categoryId, tags, deletedFiles,
 * newFiles } answers the generic equipment; DELETE archives it (its items leave the rooms, their open
 * incidents are rejected) and answers `{ equipmentTypes, equipmentItems, reportIdentifiers, incidentsRejected }`.
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, params, ctx }) => {
  if (request.method !== "PUT" && request.method !== "DELETE") return methodNotAllowed("GET, PUT, DELETE");
  const id = idParam(params.id);
  if (id === null) throw equipmentTypeNotFound();
  if (request.method === "DELETE") return archiveEquipmentType(ctx, id);
  return updateEquipmentType(ctx, id, deferred(() => parseJson(request, UpdateEquipmentTypeBodySchema)));
});

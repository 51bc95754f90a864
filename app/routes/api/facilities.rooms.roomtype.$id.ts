import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, idParam, methodNotAllowed, jsonBody } from "~/http/api.server";
import { RoomTypeBodySchema } from "~/modules/rooms/api-body";
import { getRoomType, roomTypeNotFound } from "~/modules/rooms/queries.server";
import { RemoveRoomTypeSchema } from "~/modules/rooms/schema";
import { removeRoomType, updateRoomType } from "~/modules/rooms/service.server";

/** GET /api/facilities/rooms/roomtype/{id} (another entity's id is 404 ROOM_TYPE_NOT_FOUND). */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ params, ctx }) => {
  const id = idParam(params.id);
  if (id === null) throw roomTypeNotFound();
  return getRoomType(ctx, id);
});

/**
 * PUT /api/facilities/rooms/roomtype/{id} { roomTypeName, tags } answers the room type. DELETE with
 * the body `{ replacementRoomType }` (optional while no room or incident type uses it) removes it and
 * answers `{ roomsMoved, incidentTypesMoved }`; in use without a replacement is 400 ROOM_TYPE_IN_USE.
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, params, ctx }) => {
  if (request.method !== "PUT" && request.method !== "DELETE") return methodNotAllowed("GET, PUT, DELETE");
  const id = idParam(params.id);
  if (id === null) throw roomTypeNotFound();
  if (request.method === "DELETE") return removeRoomType(ctx, id, jsonBody(request, RemoveRoomTypeSchema, { optional: true }));
  return updateRoomType(ctx, id, jsonBody(request, RoomTypeBodySchema));
});

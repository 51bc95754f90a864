import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { deferred } from "~/core/input";
import { apiRoute, idParam, methodNotAllowed, parseJson } from "~/http/api.server";
import { ValidationError } from "~/lib/errors";
import { INVALID } from "~/lib/schema-helpers";
import { UpdateRoomBodySchema } from "~/modules/rooms/api-body";
import { roomNotFound, viewRoom } from "~/modules/rooms/queries.server";
import { archiveRoom, updateRoom } from "~/modules/rooms/service.server";

/**
 * GET /api/facilities/rooms/{id}: the room with links, files, incident types, equipment items and
 * report identifier. Same access as /view-room/{id}: a technician only for rooms of the facilities or
 * buildings linked to them (403 otherwise); another entity's id is 404 ROOM_NOT_FOUND.
 */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ params, ctx }) => {
  const id = idParam(params.id);
  if (id === null) throw roomNotFound();
  return viewRoom(ctx, id);
});

/**
 * PUT /api/facilities/rooms/{id} replaces the room (items left out of `equipments` are deleted) and
 * answers it; DELETE archives it with its items and report identifiers and answers the cascade counts.
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, params, ctx }) => {
  if (request.method !== "PUT" && request.method !== "DELETE") return methodNotAllowed("GET, PUT, DELETE");
  const id = idParam(params.id);
  if (id === null) throw roomNotFound();
  if (request.method === "DELETE") return archiveRoom(ctx, id);
  const room = deferred(async () => {
    const { id: bodyId, ...fields } = await parseJson(request, UpdateRoomBodySchema);
    if (bodyId != null && bodyId !== id) throw new ValidationError({ id: [INVALID] });
    return fields;
  });
  return updateRoom(ctx, id, room);
});

import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { deferred } from "~/core/input";
import { apiRoute, created, listJson, methodNotAllowed, parseJson } from "~/http/api.server";
import { intListParam, parseListQuery } from "~/lib/list-query";
import { CreateRoomBodySchema } from "~/modules/rooms/api-body";
import { listRooms, ROOM_SORTS } from "~/modules/rooms/queries.server";
import { createRoom } from "~/modules/rooms/service.server";

/** GET /api/facilities/rooms?buildingIds=1,2&page&size&sort&dir&q (X-Total-Count). */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ request, ctx }) => {
  const params = new URL(request.url).searchParams;
  const query = parseListQuery(params, { sorts: ROOM_SORTS, defaultSort: "name", mode: "api" });
  return listJson(await listRooms(ctx, query, { buildingIds: intListParam(params, "buildingIds") }));
});

/**
 * POST /api/facilities/rooms: name, description, floor, buildingId, roomTypeId, incidentTypes, links,
 * newFiles and roomEquipments `[{ equipmentTypeId, internalReferences: string[] }]` (one item per
 * reference). 201 with the room as GET /api/facilities/rooms/{id} shows it.
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, ctx }) => {
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  return created(await createRoom(ctx, deferred(() => parseJson(request, CreateRoomBodySchema))));
});

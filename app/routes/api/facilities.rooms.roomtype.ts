import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, created, listJson, methodNotAllowed, jsonBody } from "~/http/api.server";
import { parseListQuery } from "~/lib/list-query";
import { RoomTypeBodySchema } from "~/modules/rooms/api-body";
import { listRoomTypes, ROOM_TYPE_SORTS } from "~/modules/rooms/queries.server";
import { createRoomType } from "~/modules/rooms/service.server";

/** GET /api/facilities/rooms/roomtype?page&size&sort&dir&q (X-Total-Count). */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ request, ctx }) => {
  const params = new URL(request.url).searchParams;
  return listJson(await listRoomTypes(ctx, parseListQuery(params, { sorts: ROOM_TYPE_SORTS, defaultSort: "name", mode: "api" })));
});

/** POST /api/facilities/rooms/roomtype { roomTypeName, tags }: 201 with the room type. */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, ctx }) => {
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  return created(await createRoomType(ctx, jsonBody(request, RoomTypeBodySchema)));
});

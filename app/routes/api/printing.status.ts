import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, idParam } from "~/http/api.server";
import { ValidationError } from "~/lib/errors";
import { listBuildingPrintRooms, listPrintTree } from "~/modules/printing/queries.server";

/**
 * GET /api/printing/status (managers and administrators): the print status (0 printed, 1 not printed,
 * 2 partially printed) of every facility and building in reach, with how many of their rooms and
 * equipment items are printed. With `?buildingId=`, that building's rooms and items instead, each with
 * its status and last print time (404 when out of reach); a room's status, `printed` and `total` count
 * its own sticker and its items', `stickerStatus` is its own sticker's.
 */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ request, ctx }) => {
  const params = new URL(request.url).searchParams;
  const raw = params.get("buildingId");
  if (raw === null) return { facilities: await listPrintTree(ctx) };
  const buildingId = idParam(raw);
  if (!buildingId) throw new ValidationError({ buildingId: ["common:validation.invalid"] }, "errors.list.invalid", "INVALID_QUERY");
  return { building: await listBuildingPrintRooms(ctx, buildingId) };
});

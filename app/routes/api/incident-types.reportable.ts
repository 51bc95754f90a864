import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, listJson, methodNotAllowed } from "~/http/api.server";
import { ValidationError } from "~/lib/errors";
import { listReportableIncidentTypesInReach, type ReportablePlace } from "~/modules/incident-types/reportable.server";

const INVALID = "incidentTypes:validation.invalid";
const MAX_ID = 2_147_483_647;

/** Exactly one of `roomId` and `equipmentItemId`, a positive id; anything else is a 400. */
function placeParam(params: URLSearchParams): ReportablePlace {
  const errors: Record<string, string[]> = {};
  const read = (name: "roomId" | "equipmentItemId") => {
    const values = params.getAll(name);
    if (values.length === 0) return null;
    const id = values.length === 1 && /^\d{1,10}$/.test(values[0]) ? Number(values[0]) : 0;
    if (id >= 1 && id <= MAX_ID) return id;
    errors[name] = [INVALID];
    return null;
  };
  const roomId = read("roomId");
  const equipmentItemId = read("equipmentItemId");
  if (!Object.keys(errors).length) {
    if (roomId !== null && equipmentItemId === null) return { roomId };
    if (equipmentItemId !== null && roomId === null) return { equipmentItemId };
    errors.roomId = [INVALID];
    errors.equipmentItemId = [INVALID];
  }
  throw new ValidationError(errors, "errors.list.invalid", "INVALID_LIST_QUERY");
}

/**
 * GET /api/incident-types/reportable?roomId= or ?equipmentItemId= (exactly one; any signed-in user):
 * the active incident types that may be reported there, by name in the caller's language, as a JSON
 * array `[{ id, name, defaultPriority, reporterMayChangePriority }]` with X-Total-Count. A room or item
 * of another entity, archived, or outside a technician's facilities and buildings is 404.
 */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ request, ctx }) => {
  const items = await listReportableIncidentTypesInReach(ctx, placeParam(new URL(request.url).searchParams));
  return listJson({ items, total: items.length });
});

export const action = apiRoute(() => methodNotAllowed("GET"));

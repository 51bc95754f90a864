import type { ActionFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed } from "~/http/api.server";
import { incidentIdParam } from "~/http/incident-api.server";
import { lineIdParam, workBody } from "~/http/work-api.server";
import type { MaterialLineInput } from "~/modules/time-costs/schema";
import { deleteMaterialLine, updateMaterialLine } from "~/modules/time-costs/service.server";

/**
 * PATCH /api/incidents/{id}/material-lines/{lineId}: changes the fields sent (the others are kept) and
 * answers `{ id }`; DELETE removes the line. A technician changes the lines they added only (403
 * NOT_YOUR_ENTRY); managers any within reach. A line of another incident is 404 MATERIAL_LINE_NOT_FOUND.
 */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, params, ctx }) => {
  if (request.method !== "PATCH" && request.method !== "DELETE") return methodNotAllowed("PATCH, DELETE");
  const target = { incidentId: incidentIdParam(params) };
  const lineId = lineIdParam(params);
  if (request.method === "DELETE") return deleteMaterialLine(ctx, target, lineId);
  return updateMaterialLine(ctx, target, lineId, workBody<Partial<MaterialLineInput>>(request));
});

export const loader = apiRoute(() => methodNotAllowed("PATCH, DELETE"));

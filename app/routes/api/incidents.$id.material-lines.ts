import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, created, methodNotAllowed } from "~/http/api.server";
import { incidentIdParam } from "~/http/incident-api.server";
import { workBody } from "~/http/work-api.server";
import { getWork } from "~/modules/time-costs/queries.server";
import type { MaterialLineInput } from "~/modules/time-costs/schema";
import { addMaterialLine } from "~/modules/time-costs/service.server";

/**
 * GET /api/incidents/{id}/material-lines: the incident's material lines, oldest first (at most 200), as
 * `[{ id, description, quantity, unitCost, total, addedBy, editable }]` (amounts as exact decimal
 * strings) with X-Total-Count (every line) and X-Total-Amount (the sum of their totals).
 */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ params, ctx }) => {
  const work = await getWork(ctx, {
    incidentId: incidentIdParam(params),
  });
  return Response.json(work.lines, {
    headers: {
      "X-Total-Count": String(work.totals.lines),
      "X-Total-Amount": work.totals.materials,
    },
  });
});

/** POST /api/incidents/{id}/material-lines `{ description, quantity, unitCost }`: adds a line. 201 with `{ id }`. */
export const action = apiRoute<ActionFunctionArgs>(async ({ request, params, ctx }) => {
  if (request.method !== "POST") return methodNotAllowed("GET, POST");
  return created(await addMaterialLine(ctx, { incidentId: incidentIdParam(params) }, workBody<MaterialLineInput>(request)));
});

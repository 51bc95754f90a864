import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed } from "~/http/api.server";
import { incidentIdParam, workOrderResponse } from "~/http/incident-api.server";

/**
 * GET /api/incidents/{id}/work-order: the printed work order (PDF, A4, in the caller's language: the
 * X-Language or Accept-Language header), as /incident/{id}/work-order.pdf answers it on the screens.
 */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ request, context, params, ctx }) =>
  workOrderResponse({ request, context }, ctx, incidentIdParam(params)),
);

export const action = apiRoute(() => methodNotAllowed("GET"));

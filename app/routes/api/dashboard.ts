import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed } from "~/http/api.server";
import { parseDashboardFilters } from "~/modules/dashboard/filters";
import { getDashboard } from "~/modules/dashboard/queries.server";

/**
 * GET /api/dashboard?facility&building&type&from&to (facility managers and administrators,
 * section 7 leaves it out): the dashboard's figures as JSON, for the viewer's reach. A filter that is no
 * id or day is a 400, another entity's (or an unreachable) facility, building or type a 404, a
 * technician a 403.
 */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ request, ctx }) => {
  const filters = parseDashboardFilters(new URL(request.url).searchParams, { strict: true });
  return getDashboard(ctx, filters);
});

export const action = apiRoute(() => methodNotAllowed("GET"));

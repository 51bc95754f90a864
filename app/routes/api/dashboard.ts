import type { LoaderFunctionArgs } from "@remix-run/node";
import { apiRoute, methodNotAllowed } from "~/http/api.server";
import { getDashboardCosts } from "~/modules/dashboard/costs.server";
import { parseDashboardFilters } from "~/modules/dashboard/filters";
import { getDashboard } from "~/modules/dashboard/queries.server";
import { getServiceLevelFigures } from "~/modules/dashboard/service-levels.server";

/**
 * GET /api/dashboard?facility&building&type&from&to (facility managers and administrators,
 * section 7 leaves it out): the dashboard's figures as JSON, for the viewer's reach, with the service
 * levels (`serviceLevels`) and the time and costs (`costs`) of the same filters (issue 62). A
 * filter that is no id or day is a 400, another entity's (or an unreachable) facility, building or type
 * a 404, a technician a 403.
 */
export const loader = apiRoute<LoaderFunctionArgs>(async ({ request, ctx }) => {
  const filters = parseDashboardFilters(new URL(request.url).searchParams, { strict: true });
  const [figures, serviceLevels, costs] = await Promise.all([getDashboard(ctx, filters), getServiceLevelFigures(ctx, filters), getDashboardCosts(ctx, filters)]);
  return { ...figures, serviceLevels, costs };
});

export const action = apiRoute(() => methodNotAllowed("GET"));

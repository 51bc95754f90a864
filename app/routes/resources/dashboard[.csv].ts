import type { LoaderFunctionArgs } from "@remix-run/node";
import { dashboardCsvResponse } from "~/http/dashboard.server";
import { serviceContext } from "~/http/route-context.server";
import { requireUser } from "~/modules/auth/guard.server";
import { parseDashboardFilters } from "~/modules/dashboard/filters";

/**
 * GET /dashboard.csv ("Export CSV" on the dashboard; facility managers and administrators): the figures
 * of the same filters as one CSV table, in the page's language, as a download.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const ctx = await serviceContext({ request, context }, user);
  return dashboardCsvResponse(ctx, parseDashboardFilters(new URL(request.url).searchParams));
}

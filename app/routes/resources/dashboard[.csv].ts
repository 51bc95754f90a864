import { dashboardCsvResponse } from "~/http/dashboard.server";
import { screenLoader } from "~/http/screen.server";
import { parseDashboardFilters } from "~/modules/dashboard/filters";

/**
 * GET /dashboard.csv ("Export CSV" on the dashboard; facility managers and administrators): the figures
 * of the same filters as one CSV table, in the page's language, as a download.
 */
export const loader = screenLoader(({ ctx, url }) => dashboardCsvResponse(ctx, parseDashboardFilters(url.searchParams)));

import { useLoaderData } from "@remix-run/react";
import { lazy, Suspense, useState } from "react";
import { useTranslation } from "react-i18next";
import { DashboardCostsSection } from "~/components/dashboard/costs";
import { DashboardFilters } from "~/components/dashboard/dashboard-filters";
import { GettingStarted } from "~/components/dashboard/getting-started";
import { LEAST_RELIABLE_PARAM, LeastReliableEquipment } from "~/components/dashboard/least-reliable";
import { DashboardTables, useFigureFormat } from "~/components/dashboard/dashboard-tables";
import { ServiceLevels } from "~/components/dashboard/service-levels";
import { useHydrated } from "~/lib/use-hydrated";
import { Button, buttonVariants } from "~/components/ui/button";
import { buildingPickerData } from "~/http/pickers.server";
import { screenLoader } from "~/http/screen.server";
import { ASSIGNEE_PAGE_PARAM, ASSIGNEES_PER_PAGE, assigneePage, DASHBOARD_CSV_PATH, dashboardParams, parseDashboardFilters } from "~/modules/dashboard/filters";
import { getDashboardCosts } from "~/modules/dashboard/costs.server";
import { getGettingStarted } from "~/modules/dashboard/getting-started.server";
import { getDashboard } from "~/modules/dashboard/queries.server";
import { getServiceLevelFigures } from "~/modules/dashboard/service-levels.server";
import { listIncidentTypeOptions } from "~/modules/incident-types/queries.server";
import { listFilterFacilities } from "~/modules/incidents/queries.server";
import { listLeastReliableEquipment } from "~/modules/reliability/queries.server";

/**
 * /dashboard (facility managers and administrators): the incidents created in the period
 * (the last six months by default) within the viewer's reach: per month, the top 10 incident types, per
 * assignee, the average handling time, by status and by priority. Every figure is a server-rendered
 * table whose counts link to the incidents table; the filters are a GET form; the charts load only when
 * asked for (JavaScript on); the CSV export and the print layout carry the same figures. Below them, the
 * service levels of the same incidents per month and facility (issue 62; in the CSV too), the time and
 * costs recorded in the period on the incidents and tasks in reach (issue 62, read from monthly roll-ups;
 * in the CSV and the API too), then the
 * least reliable equipment of the last twelve months (issue 62), whatever the filters, when asked for
 * (a plain link, `?reliability=1`). An entity that
 * lacks part of what a first room and its stickers need sees its getting-started path first.
 */
export const loader = screenLoader(async ({ ctx, url: { searchParams: params } }) => {
  const filters = parseDashboardFilters(params);
  const [figures, serviceLevels, costs, gettingStarted, types, facilities, buildingPicker, leastReliable] = await Promise.all([
    getDashboard(ctx, filters),
    getServiceLevelFigures(ctx, filters),
    getDashboardCosts(ctx, filters),
    getGettingStarted(ctx),
    listIncidentTypeOptions(ctx),
    listFilterFacilities(ctx),
    buildingPickerData(ctx, params, filters.buildingId, { facilityId: filters.facilityId }),
    // Counted on request only: at the scale seed the ranking reads a year of failures (see the report).
    params.get(LEAST_RELIABLE_PARAM) === "1" ? listLeastReliableEquipment(ctx) : null,
  ]);
  // The screen shows the assignees a page at a time (an entity with a hundred technicians would
  // otherwise send and render them all on every visit); the kept figures are not changed.
  const page = assigneePage(params.get(ASSIGNEE_PAGE_PARAM), figures.assignees.length);
  const assignees = figures.assignees.slice(page.offset, page.offset + ASSIGNEES_PER_PAGE);
  return { figures: { ...figures, assignees }, assigneePage: page, serviceLevels, costs, gettingStarted, leastReliable, options: { types, facilities, buildingPicker } };
});

const DashboardCharts = lazy(() => import("~/components/dashboard/dashboard-charts"));

export default function Dashboard() {
  const { t } = useTranslation("dashboard");
  const { figures, assigneePage, serviceLevels, costs, gettingStarted, leastReliable, options } = useLoaderData<typeof loader>();
  const f = useFigureFormat();
  const hydrated = useHydrated();
  const [charts, setCharts] = useState(false);
  const query = dashboardParams(figures.filters).toString();

  return (
    <div className="grid min-w-0 gap-6">
      <div className="grid gap-1">
        <h1 className="text-2xl font-semibold tracking-tight">{t("common:screens.dashboard")}</h1>
        <p className="text-sm text-muted-foreground">
          {t("intro", { from: f.day(figures.period.from), to: f.day(figures.period.to), timeZone: figures.timeZone })}
        </p>
      </div>
      {gettingStarted ? <GettingStarted steps={gettingStarted} /> : null}
      <DashboardFilters
        filters={figures.filters}
        period={figures.period}
        types={options.types}
        facilities={options.facilities}
        buildingPicker={options.buildingPicker}
      />
      <nav aria-label={t("actions.label")} className="flex flex-wrap gap-2 print:hidden">
        <a href={query ? `${DASHBOARD_CSV_PATH}?${query}` : DASHBOARD_CSV_PATH} className={buttonVariants({ variant: "outline" })} download>
          {t("actions.export")}
        </a>
        {hydrated ? (
          <>
            <Button type="button" variant="outline" onClick={() => window.print()}>
              {t("actions.print")}
            </Button>
            <Button type="button" variant="outline" aria-expanded={charts} onClick={() => setCharts((v) => !v)}>
              {charts ? t("actions.hideCharts") : t("actions.showCharts")}
            </Button>
          </>
        ) : null}
      </nav>
      {charts ? (
        <Suspense fallback={<p className="text-sm text-muted-foreground">{t("actions.loadingCharts")}</p>}>
          <DashboardCharts figures={figures} />
        </Suspense>
      ) : null}
      <DashboardTables figures={figures} assigneePage={assigneePage} />
      <ServiceLevels figures={serviceLevels} />
      <DashboardCostsSection costs={costs} />
      <LeastReliableEquipment rows={leastReliable} />
    </div>
  );
}

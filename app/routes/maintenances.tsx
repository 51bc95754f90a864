import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FilterSelect, ListToolbar } from "~/components/lists/list-toolbar";
import { PlansTable, TypesTable } from "~/components/maintenance/maintenance-tables";
import { buttonVariants } from "~/components/ui/button";
import { TabLinks } from "~/components/ui/tabs";
import { tabsLoader } from "~/http/screen.server";
import { intParam, parseListQuery } from "~/lib/list-query";
import { listFacilityOptions } from "~/modules/facilities/queries.server";
import { listAssigneeChoices, listMaintenanceTypeOptions, listMaintenanceTypes, listPlannedMaintenances, MAINTENANCE_TYPE_SORTS, PLANNED_MAINTENANCE_SORTS } from "~/modules/maintenance/queries.server";
import { NeedMaintenanceType } from "~/components/maintenance/need-maintenance-type";

/**
 * /maintenances: "Planned Maintenances" (default; filters by type, facility and assignee) and
 * "Maintenance Types" (`?tab=types`) as link tabs. Search, filters, sort and paging come from the
 * address, so every control is a link or a GET form (JavaScript off too).
 */
export const loader = tabsLoader("planned", {
  planned: async ({ ctx, url: { searchParams: params } }) => {
    const query = parseListQuery(params, { sorts: PLANNED_MAINTENANCE_SORTS, defaultSort: "startDate" });
    const filters = { maintenanceTypeId: intParam(params, "maintenanceTypeId"), facilityId: intParam(params, "facilityId"), assigneeId: intParam(params, "assigneeId") };
    const [plans, types, facilities, assignees] = await Promise.all([
      listPlannedMaintenances(ctx, query, filters),
      listMaintenanceTypeOptions(ctx),
      listFacilityOptions(ctx),
      listAssigneeChoices(ctx),
    ]);
    return { query, plans, types: null, filters, typeOptions: types, facilityOptions: facilities, assigneeOptions: assignees };
  },
  types: async ({ ctx, url: { searchParams: params } }) => {
    const query = parseListQuery(params, { sorts: MAINTENANCE_TYPE_SORTS, defaultSort: "name" });
    return { query, plans: null, types: await listMaintenanceTypes(ctx, query), filters: null, typeOptions: [], facilityOptions: [], assigneeOptions: [] };
  },
});

export default function Maintenances() {
  const { t } = useTranslation("maintenance");
  const data = useLoaderData<typeof loader>();
  const filters = data.filters;
  return (
    <div className="grid gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">{t("common:screens.maintenances")}</h1>
      <TabLinks
        label={t("tabs.label")}
        active={data.tab}
        preventScrollReset
        tabs={[
          { key: "planned", to: "/maintenances", label: t("tabs.planned") },
          { key: "types", to: "/maintenances?tab=types", label: t("tabs.types") },
        ]}
      />

      {data.tab === "planned" && data.plans && filters ? (
        <>
          <ListToolbar
            q={data.query.q}
            filters={
              <>
                <FilterSelect name="maintenanceTypeId" label={t("filters.type")} value={filters.maintenanceTypeId} allLabel={t("filters.allTypes")} options={data.typeOptions.map((o) => ({ value: o.id, label: o.name }))} />
                <FilterSelect name="facilityId" label={t("filters.facility")} value={filters.facilityId} allLabel={t("filters.allFacilities")} options={data.facilityOptions.map((o) => ({ value: o.id, label: o.name }))} />
                <FilterSelect name="assigneeId" label={t("filters.assignee")} value={filters.assigneeId} allLabel={t("filters.allAssignees")} options={data.assigneeOptions.map((o) => ({ value: o.id, label: `${o.name} ${o.surname}` }))} />
              </>
            }
            actions={
              data.typeOptions.length > 0 ? (
                <Link to={filters.maintenanceTypeId ? `/add-planned-maintenance?type=${filters.maintenanceTypeId}` : "/add-planned-maintenance"} className={buttonVariants()}>
                  {t("plans.add")}
                </Link>
              ) : null
            }
          />
          {data.typeOptions.length === 0 ? (
            <NeedMaintenanceType />
          ) : null}
          <PlansTable page={data.plans} query={data.query} filtered={Boolean(data.query.q || filters.maintenanceTypeId || filters.facilityId || filters.assigneeId)} />
        </>
      ) : null}

      {data.tab === "types" && data.types ? (
        <>
          <ListToolbar
            q={data.query.q}
            actions={
              <Link to="/add-maintenance-type" className={buttonVariants()}>
                {t("types.add")}
              </Link>
            }
          />
          <TypesTable page={data.types} query={data.query} />
        </>
      ) : null}
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";

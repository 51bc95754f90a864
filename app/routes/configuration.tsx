import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { IncidentTypesTable } from "~/components/incident-types/incident-types-table";
import { FilterSelect, ListToolbar } from "~/components/lists/list-toolbar";
import { buttonVariants } from "~/components/ui/button";
import { TabLinks } from "~/components/ui/tabs";
import { tabsLoader } from "~/http/screen.server";
import { intParam, parseListQuery } from "~/lib/list-query";
import { INCIDENT_TYPE_SORTS, listIncidentTypes } from "~/modules/incident-types/queries.server";

/**
 * /configuration: what managers set up for the entity, as link tabs. Incident types
 * (`?tab=incident-types`, the default and, for now, the only tab): searched over the three names,
 * filtered by status (none or active), sorted and paged by the URL, so it works without JavaScript.
 */
const TABS = ["incident-types"] as const;
const STATUSES = [0, 1] as const;

export const loader = tabsLoader("incident-types", {
  "incident-types": async ({ ctx, url: { searchParams: params } }) => {
    const query = parseListQuery(params, { sorts: INCIDENT_TYPE_SORTS, defaultSort: "name" });
    const status = STATUSES.find((value) => value === intParam(params, "status")) ?? null;
    return { query, status, incidentTypes: await listIncidentTypes(ctx, query, { status }) };
  },
});

export default function Configuration() {
  const { t } = useTranslation("incidentTypes");
  const data = useLoaderData<typeof loader>();
  return (
    <div className="grid gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">{t(`tabs.${data.tab}`)}</h1>
      <TabLinks label={t("tabs.label")} active={data.tab} tabs={TABS.map((tab) => ({ key: tab, to: `/configuration?tab=${tab}`, label: t(`tabs.${tab}`) }))} />

      {data.tab === "incident-types" ? (
        <>
          <ListToolbar
            q={data.query.q}
            filters={
              <FilterSelect
                name="status"
                label={t("list.filterStatus")}
                allLabel={t("list.allStatuses")}
                value={data.status}
                options={STATUSES.map((value) => ({ value, label: t(`status.${value}`) }))}
              />
            }
            actions={
              <Link to="/add-incident-type" className={buttonVariants()}>
                {t("list.add")}
              </Link>
            }
          />
          <IncidentTypesTable page={data.incidentTypes} query={data.query} filtered={Boolean(data.query.q || data.status !== null)} />
        </>
      ) : null}
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";

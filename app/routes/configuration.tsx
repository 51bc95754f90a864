import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { type HubCard, HubCards } from "~/components/administration/hub-cards";
import { IncidentTypesTable } from "~/components/incident-types/incident-types-table";
import { ListToolbar } from "~/components/lists/list-toolbar";
import { buttonVariants } from "~/components/ui/button";
import { TabLinks } from "~/components/ui/tabs";
import { tabsLoader } from "~/http/screen.server";
import { intParam, parseListQuery } from "~/lib/list-query";
import { configurationCounts } from "~/modules/administration/queries.server";
import { INCIDENT_TYPE_SORTS, listIncidentTypes } from "~/modules/incident-types/queries.server";

/**
 * /configuration: what managers set up for the entity, as link tabs.
 * - The hub (the default, decision 057): a card per setting with its count and a link, the entity's
 *   settings, incident types, maintenance types, room types and printing.
 * - Incident types (`?tab=incident-types`): searched over the three names, filtered by status (none or
 *   active), sorted and paged by the URL, so it works without JavaScript.
 */
const TABS = ["overview", "incident-types"] as const;
const STATUSES = [0, 1] as const;

export const loader = tabsLoader("overview", {
  overview: async ({ ctx }) => ({ counts: await configurationCounts(ctx) }),
  "incident-types": async ({ ctx, url: { searchParams: params } }) => {
    const query = parseListQuery(params, { sorts: INCIDENT_TYPE_SORTS, defaultSort: "name" });
    const status = STATUSES.find((value) => value === intParam(params, "status")) ?? null;
    return { query, status, incidentTypes: await listIncidentTypes(ctx, query, { status }) };
  },
});

function ConfigurationCards({ counts }: { counts: Awaited<ReturnType<typeof configurationCounts>> }) {
  const { t } = useTranslation("administration");
  const cards: HubCard[] = [
    { key: "entity-settings", to: "/settings?tab=entity", title: t("configuration.entity.title"), description: t("configuration.entity.description"), count: counts.entityName },
    {
      key: "incident-types",
      to: "/configuration?tab=incident-types",
      title: t("configuration.incidentTypes.title"),
      description: t("configuration.incidentTypes.description"),
      count: t("configuration.incidentTypes.count", { count: counts.incidentTypes }),
    },
    {
      key: "maintenance-types",
      to: "/maintenances?tab=types",
      title: t("configuration.maintenanceTypes.title"),
      description: t("configuration.maintenanceTypes.description"),
      count: t("configuration.maintenanceTypes.count", { count: counts.maintenanceTypes }),
    },
    { key: "room-types", to: "/room-type", title: t("configuration.roomTypes.title"), description: t("configuration.roomTypes.description"), count: t("configuration.roomTypes.count", { count: counts.roomTypes }) },
    { key: "printing", to: "/printing", title: t("configuration.printing.title"), description: t("configuration.printing.description"), count: t("configuration.printing.count", { count: counts.rooms }) },
  ];
  return <HubCards label={t("common:screens.configuration")} cards={cards} />;
}

export default function Configuration() {
  const { t } = useTranslation("incidentTypes");
  const data = useLoaderData<typeof loader>();
  const tabLabel = (tab: (typeof TABS)[number]) => (tab === "overview" ? t("administration:configuration.overview") : t(`tabs.${tab}`));
  return (
    <div className="grid gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">{data.tab === "overview" ? t("common:screens.configuration") : t(`tabs.${data.tab}`)}</h1>
      <TabLinks label={t("tabs.label")} active={data.tab} tabs={TABS.map((tab) => ({ key: tab, to: tab === "overview" ? "/configuration" : `/configuration?tab=${tab}`, label: tabLabel(tab) }))} />

      {data.tab === "overview" ? <ConfigurationCards counts={data.counts} /> : null}

      {data.tab === "incident-types" ? (
        <>
          <ListToolbar
            q={data.query.q}
            filter={{ name: "status", label: t("list.filterStatus"), allLabel: t("list.allStatuses"), value: data.status, options: STATUSES.map((value) => ({ value, label: t(`status.${value}`) })) }}
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

import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { countColumn, linkColumn, PlaceIncidents, PlaceViewHeader, shortIdColumn, ViewDetails, ViewEmpty, ViewSection, ViewTable } from "~/components/facilities/place-view";
import type { TitledHandle } from "~/components/shell/document-title";
import { can } from "~/core/actor";
import { screenLoader, subjectById } from "~/http/screen.server";
import { type FacilityView, viewFacility } from "~/modules/facilities/queries.server";

/**
 * /view-facility/{id}, for every signed-in user (SPEC.md section 2's view mode, as /view-room/{id}): the
 * facility, its buildings (each to its view) and its active incidents; "Edit" for those who manage places.
 * Another entity's facility or one outside the user's reach is a 404 page.
 */
const viewedFacility = subjectById(viewFacility);

type BuildingItem = FacilityView["buildings"][number];

export const handle: TitledHandle = {
  documentTitle: (data: { facility?: { name: string } }) => data.facility?.name,
};

export const loader = screenLoader(viewedFacility, ({ ctx, subject: facility }) => ({ facility, canManage: can(ctx.actor, "manage", "place") }));

export default function ViewFacility() {
  const { t } = useTranslation("facilities");
  const { facility, canManage } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto grid w-full max-w-5xl grid-cols-[minmax(0,1fr)] gap-6">
      <PlaceViewHeader
        name={facility.name}
        shortId={facility.shortId}
        back={canManage ? { to: "/facilities", label: t("facility.back") } : null}
        editTo={canManage ? `/update-facility/${facility.id}` : null}
      />
      <ViewSection title={t("view.details")}>
        <ViewDetails
          items={[
            [t("facility.name"), facility.name],
            [t("facility.description"), facility.description],
            [t("columns.countBuildings"), facility.countBuildings],
            [t("columns.activeIncidents"), facility.activeIncidents],
          ]}
        />
      </ViewSection>
      <ViewSection title={t("view.buildings")}>
        {facility.buildings.length === 0 ? (
          <ViewEmpty>{t("view.noBuildings")}</ViewEmpty>
        ) : (
          <ViewTable
            caption={t("view.buildingsCaption")}
            className="min-w-[28rem]"
            rows={facility.buildings}
            columns={[
              shortIdColumn(t("columns.shortId")),
              linkColumn<BuildingItem>(t("columns.name"), (building) => `/view-building/${building.id}`, (building) => building.name),
              { header: t("columns.city"), cell: (building: BuildingItem) => building.city },
              countColumn<BuildingItem>(t("columns.countRooms"), (building) => building.countRooms),
              countColumn<BuildingItem>(t("columns.activeIncidents"), (building) => building.activeIncidents),
            ]}
          />
        )}
      </ViewSection>
      <PlaceIncidents incidents={facility.activeIncidentList} caption={t("view.facilityIncidentsCaption")} empty={t("view.noFacilityIncidents")} />
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";

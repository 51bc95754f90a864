import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { countColumn, linkColumn, PlaceIncidents, PlaceViewHeader, placeLinkClass, shortIdColumn, ViewDetails, ViewEmpty, ViewSection, ViewTable } from "~/components/facilities/place-view";
import type { TitledHandle } from "~/components/shell/document-title";
import { can } from "~/core/actor";
import { screenLoader, subjectById } from "~/http/screen.server";
import { type BuildingView, viewBuilding } from "~/modules/facilities/queries.server";

/**
 * /view-building/{id}, for every signed-in user (SPEC.md section 2's view mode, as /view-room/{id}): the
 * building, its rooms (each to its view) and its active incidents; "Edit" for those who manage places.
 * Another entity's building or one outside the user's reach is a 404 page.
 */
const viewedBuilding = subjectById(viewBuilding);

type RoomItem = BuildingView["rooms"][number];

export const handle: TitledHandle = {
  documentTitle: (data: { building?: { name: string } }) => data.building?.name,
};

export const loader = screenLoader(viewedBuilding, ({ ctx, subject: building }) => ({ building, canManage: can(ctx.actor, "manage", "place") }));

export default function ViewBuilding() {
  const { t } = useTranslation("facilities");
  const { building, canManage } = useLoaderData<typeof loader>();
  const address = [
    [building.streetName, building.streetNumber, building.suffix].filter(Boolean).join(" "),
    [building.postalCode, building.city].filter(Boolean).join(" "),
    building.country,
  ]
    .filter(Boolean)
    .join(", ");
  return (
    <div className="mx-auto grid w-full max-w-5xl grid-cols-[minmax(0,1fr)] gap-6">
      <PlaceViewHeader
        name={building.name}
        shortId={building.shortId}
        back={canManage ? { to: "/facilities?tab=buildings", label: t("building.back") } : null}
        editTo={canManage ? `/update-building/${building.id}` : null}
      />
      <ViewSection title={t("view.details")}>
        <ViewDetails
          items={[
            [t("building.name"), building.name],
            [t("building.description"), building.description],
            [
              t("building.facility"),
              <Link key="facility" to={`/view-facility/${building.facilityId}`} className={placeLinkClass}>
                {building.facilityName}
              </Link>,
            ],
            [t("building.address"), address],
            [t("columns.countRooms"), building.countRooms],
            [t("columns.activeIncidents"), building.activeIncidents],
          ]}
        />
      </ViewSection>
      <ViewSection title={t("view.rooms")}>
        {building.rooms.length === 0 ? (
          <ViewEmpty>{t("view.noRooms")}</ViewEmpty>
        ) : (
          <ViewTable
            caption={t("view.roomsCaption")}
            className="min-w-[24rem]"
            rows={building.rooms}
            columns={[
              shortIdColumn(t("columns.shortId")),
              linkColumn<RoomItem>(t("columns.name"), (room) => `/view-room/${room.id}`, (room) => room.name),
              { header: t("view.floor"), cell: (room: RoomItem) => room.floor },
              countColumn<RoomItem>(t("columns.activeIncidents"), (room) => room.activeIncidents),
            ]}
          />
        )}
      </ViewSection>
      <PlaceIncidents incidents={building.activeIncidentList} caption={t("view.buildingIncidentsCaption")} empty={t("view.noBuildingIncidents")} />
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";

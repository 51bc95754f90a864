import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PlaceIncidents, PlaceViewHeader, placeLinkClass, ViewDetails, ViewEmpty, ViewSection } from "~/components/facilities/place-view";
import type { TitledHandle } from "~/components/shell/document-title";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { can } from "~/core/actor";
import { screenLoader, subjectById } from "~/http/screen.server";
import { viewBuilding } from "~/modules/facilities/queries.server";

/**
 * /view-building/{id}, for every signed-in user (SPEC.md section 2's view mode, as /view-room/{id}): the
 * building, its rooms (each to its view) and its active incidents; "Edit" for those who manage places.
 * Another entity's building or one outside the user's reach is a 404 page.
 */
const viewedBuilding = subjectById(viewBuilding);

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
          <Table className="min-w-[24rem]" wrapperClassName="border">
            <TableCaption className="sr-only">{t("view.roomsCaption")}</TableCaption>
            <TableHeader className="bg-muted/50">
              <TableRow className="hover:bg-transparent">
                <TableHead className="w-20">{t("columns.shortId")}</TableHead>
                <TableHead>{t("columns.name")}</TableHead>
                <TableHead>{t("view.floor")}</TableHead>
                <TableHead className="text-right">{t("columns.activeIncidents")}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {building.rooms.map((room) => (
                <TableRow key={room.id}>
                  <TableCell className="tabular-nums">{room.shortId}</TableCell>
                  <TableCell>
                    <Link to={`/view-room/${room.id}`} className={placeLinkClass}>
                      {room.name}
                    </Link>
                  </TableCell>
                  <TableCell>{room.floor}</TableCell>
                  <TableCell className="text-right tabular-nums">{room.activeIncidents}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </ViewSection>
      <PlaceIncidents incidents={building.activeIncidentList} caption={t("view.buildingIncidentsCaption")} empty={t("view.noBuildingIncidents")} />
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";

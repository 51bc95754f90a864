import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { PlaceIncidents, PlaceViewHeader, placeLinkClass, ViewDetails, ViewEmpty, ViewSection } from "~/components/facilities/place-view";
import type { TitledHandle } from "~/components/shell/document-title";
import { Table, TableBody, TableCaption, TableCell, TableHead, TableHeader, TableRow } from "~/components/ui/table";
import { can } from "~/core/actor";
import { screenLoader, subjectById } from "~/http/screen.server";
import { viewFacility } from "~/modules/facilities/queries.server";

/**
 * /view-facility/{id}, for every signed-in user (SPEC.md section 2's view mode, as /view-room/{id}): the
 * facility, its buildings (each to its view) and its active incidents; "Edit" for those who manage places.
 * Another entity's facility or one outside the user's reach is a 404 page.
 */
const viewedFacility = subjectById(viewFacility);

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
          <Table className="min-w-[28rem]" wrapperClassName="border">
            <TableCaption className="sr-only">{t("view.buildingsCaption")}</TableCaption>
            <TableHeader className="bg-muted/50">
              <TableRow className="hover:bg-transparent">
                <TableHead className="w-20">{t("columns.shortId")}</TableHead>
                <TableHead>{t("columns.name")}</TableHead>
                <TableHead>{t("columns.city")}</TableHead>
                <TableHead className="text-right">{t("columns.countRooms")}</TableHead>
                <TableHead className="text-right">{t("columns.activeIncidents")}</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {facility.buildings.map((building) => (
                <TableRow key={building.id}>
                  <TableCell className="tabular-nums">{building.shortId}</TableCell>
                  <TableCell>
                    <Link to={`/view-building/${building.id}`} className={placeLinkClass}>
                      {building.name}
                    </Link>
                  </TableCell>
                  <TableCell>{building.city}</TableCell>
                  <TableCell className="text-right tabular-nums">{building.countRooms}</TableCell>
                  <TableCell className="text-right tabular-nums">{building.activeIncidents}</TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        )}
      </ViewSection>
      <PlaceIncidents incidents={facility.activeIncidentList} caption={t("view.facilityIncidentsCaption")} empty={t("view.noFacilityIncidents")} />
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";

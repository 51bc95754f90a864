import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { BuildingsTable } from "~/components/facilities/buildings-table";
import { FacilitiesTable } from "~/components/facilities/facilities-table";
import { RoomTabs } from "~/components/rooms/room-tabs";
import { roomListPage, RoomsTable } from "~/components/rooms/rooms-table";
import { ListToolbar } from "~/components/lists/list-toolbar";
import { buttonVariants } from "~/components/ui/button";
import { TabLinks } from "~/components/ui/tabs";
import { intParam, parseListQuery } from "~/lib/list-query";
import { buildingPickerData } from "~/http/pickers.server";
import { tabsLoader } from "~/http/screen.server";
import { BUILDING_SORTS, FACILITY_SORTS, listBuildings, listFacilities, listFacilityOptions } from "~/modules/facilities/queries.server";
import { listRooms, ROOM_SORTS } from "~/modules/rooms/queries.server";

/**
 * /facilities: the facility tree as link tabs, Facilities (default), Buildings (`?tab=buildings`,
 * optionally `&facilityId=`) and Rooms (`?tab=rooms`). Each tab is a server-sorted, server-paged list
 * driven by the URL (search, sort, page, size), so it works without JavaScript.
 */
const TABS = ["facilities", "buildings", "rooms"] as const;

export const loader = tabsLoader("facilities", {
  facilities: async ({ ctx, url: { searchParams: params } }) => {
    const query = parseListQuery(params, { sorts: FACILITY_SORTS, defaultSort: "name" });
    return { query, facilities: await listFacilities(ctx, query) };
  },
  buildings: async ({ ctx, url: { searchParams: params } }) => {
    const query = parseListQuery(params, { sorts: BUILDING_SORTS, defaultSort: "name" });
    const facilityId = intParam(params, "facilityId");
    const [buildings, facilityOptions] = await Promise.all([
      listBuildings(ctx, query, { facilityIds: facilityId ? [facilityId] : null }),
      listFacilityOptions(ctx),
    ]);
    return { query, facilityId, buildings, facilityOptions };
  },
  rooms: async ({ ctx, url: { searchParams: params } }) => {
    const query = parseListQuery(params, { sorts: ROOM_SORTS, defaultSort: "name" });
    const facilityId = intParam(params, "facilityId");
    const buildingId = intParam(params, "buildingId");
    // The building filter is a searchable, paged picker (there can be thousands of buildings).
    const [rooms, facilityOptions, buildingPicker] = await Promise.all([
      listRooms(ctx, query, { facilityId, buildingIds: buildingId ? [buildingId] : null }),
      listFacilityOptions(ctx),
      buildingPickerData(ctx, params, buildingId, { facilityId }),
    ]);
    return { query, facilityId, buildingId, rooms: roomListPage(rooms), facilityOptions, buildingPicker };
  },
});

export default function Facilities() {
  const { t } = useTranslation("facilities");
  const data = useLoaderData<typeof loader>();
  return (
    <div className="grid gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">{t(`tabs.${data.tab}`)}</h1>
      <TabLinks
        label={t("tabs.label")}
        active={data.tab}
        tabs={TABS.map((tab) => ({ key: tab, to: tab === "facilities" ? "/facilities" : `/facilities?tab=${tab}`, label: t(`tabs.${tab}`) }))}
      />

      {data.tab === "facilities" ? (
        <>
          <ListToolbar
            q={data.query.q}
            actions={
              <Link to="/add-facility" className={buttonVariants()}>
                {t("facilities.add")}
              </Link>
            }
          />
          <FacilitiesTable page={data.facilities} query={data.query} />
        </>
      ) : null}

      {data.tab === "buildings" ? (
        <>
          <ListToolbar
            q={data.query.q}
            filter={{ name: "facilityId", label: t("buildings.filterFacility"), allLabel: t("buildings.allFacilities"), value: data.facilityId, options: data.facilityOptions.map((f) => ({ value: f.id, label: f.name })) }}
            actions={
              data.facilityOptions.length > 0 ? (
                <Link to={data.facilityId ? `/add-building?facilityId=${data.facilityId}` : "/add-building"} className={buttonVariants()}>
                  {t("buildings.add")}
                </Link>
              ) : null
            }
          />
          {data.facilityOptions.length === 0 ? (
            <p className="text-sm text-muted-foreground">
              {t("buildings.needFacility")}{" "}
              <Link to="/add-facility" className="font-medium text-primary underline-offset-4 hover:underline">
                {t("facilities.add")}
              </Link>
            </p>
          ) : null}
          <BuildingsTable page={data.buildings} query={data.query} filtered={Boolean(data.query.q || data.facilityId)} />
        </>
      ) : null}

      {data.tab === "rooms" ? (
        <>
          <RoomTabs active="rooms" />
          <RoomsTable
            page={data.rooms}
            query={data.query}
            facilities={data.facilityOptions}
            buildingPicker={data.buildingPicker}
            facilityId={data.facilityId}
            buildingId={data.buildingId}
          />
        </>
      ) : null}
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";

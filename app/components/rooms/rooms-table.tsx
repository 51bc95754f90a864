import { Link } from "@remix-run/react";
import { useId, useMemo } from "react";
import { useTranslation } from "react-i18next";
import { nameLinkColumn, shortIdColumn, viewColumn } from "~/components/lists/cells";
import { DataTable, listColumns, listTexts } from "~/components/lists/data-table";
import { numberColumnClass } from "~/components/lists/styles";
import { type BuildingChoice, BuildingPicker, type BuildingSearch } from "~/components/forms/building-picker";
import { FilterSelect, ListToolbar } from "~/components/lists/list-toolbar";
import { buttonVariants } from "~/components/ui/button";
import type { ListQuery, Page } from "~/lib/list-query";
import type { RoomRow } from "~/modules/rooms/queries.server";

/** What a row of the table shows: the loader sends no more of a room (its description, its ids of other records). */
export type RoomListRow = Pick<RoomRow, "id" | "shortId" | "name" | "floor" | "buildingName" | "facilityName" | "roomTypeName" | "activeEquipmentCount" | "activeIncidents">;

/** The page of rooms as the table needs it (server side, in the loader). */
export function roomListPage(page: Page<RoomRow>): Page<RoomListRow> {
  return {
    ...page,
    items: page.items.map((room) => ({
      id: room.id,
      shortId: room.shortId,
      name: room.name,
      floor: room.floor,
      buildingName: room.buildingName,
      facilityName: room.facilityName,
      roomTypeName: room.roomTypeName,
      activeEquipmentCount: room.activeEquipmentCount,
      activeIncidents: room.activeIncidents,
    })),
  };
}

const column = listColumns<RoomListRow>();

export interface RoomsTableProps {
  page: Page<RoomListRow>;
  query: ListQuery;
  facilities: { id: number; name: string }[];
  /** The building filter: the chosen building and one page of matches (searchable, paged). */
  buildingPicker: { selected: BuildingChoice | null; search: BuildingSearch };
  /** The current filters (`facilityId`, `buildingId`), `null` for none. */
  facilityId: number | null;
  buildingId: number | null;
}

/**
 * The Rooms tab of /facilities (`?tab=rooms`): the search with the facility and building filters (a
 * GET form), "Room types" and "Add room", then the rooms, server-sorted and paged. A name links to
 * the room's form, "View" to its room view.
 */
export function RoomsTable({ page, query, facilities, buildingPicker, facilityId, buildingId }: RoomsTableProps) {
  const { t } = useTranslation("rooms");
  const buildingFilterId = useId();
  const columns = useMemo(
    () => [
      shortIdColumn<RoomListRow>(t("columns.shortId")),
      nameLinkColumn<RoomListRow>(t("columns.name"), (room) => `/update-room/${room.id}`),
      column.accessor("floor", { header: t("columns.floor"), meta: { sortKey: "floor" } }),
      column.accessor("buildingName", { header: t("columns.building"), meta: { sortKey: "buildingName" } }),
      column.accessor("facilityName", { header: t("columns.facility"), meta: { sortKey: "facilityName" } }),
      column.accessor("roomTypeName", { header: t("columns.roomType"), meta: { sortKey: "roomTypeName" } }),
      column.accessor("activeEquipmentCount", { header: t("columns.equipmentCount"), meta: { className: numberColumnClass } }),
      column.accessor("activeIncidents", { header: t("columns.activeIncidents"), meta: { className: numberColumnClass } }),
      viewColumn<RoomListRow>({ header: t("columns.actions"), view: t("rooms.view"), label: (row) => t("rooms.viewLabel", { name: row.name }) }, (row) => `/view-room/${row.id}`),
    ],
    [t],
  );
  return (
    <div className="grid gap-6">
      <ListToolbar
        q={query.q}
        filters={
          <>
            <FilterSelect
              name="facilityId"
              label={t("rooms.filterFacility")}
              allLabel={t("rooms.allFacilities")}
              value={facilityId}
              options={facilities.map((facility) => ({ value: facility.id, label: facility.name }))}
            />
            <BuildingPicker
              key={`${buildingPicker.search.q}|${buildingPicker.search.options[0]?.id ?? ""}|${buildingId ?? ""}|${facilityId ?? ""}`}
              className="sm:w-72"
              label={t("rooms.filterBuilding")}
              selectProps={{ id: buildingFilterId, name: "buildingId", defaultValue: buildingId === null ? "" : String(buildingId) }}
              emptyLabel={t("rooms.allBuildings")}
              selected={buildingPicker.selected}
              search={buildingPicker.search}
              facilityId={facilityId}
              submit={{ method: "get" }}
            />
          </>
        }
        actions={
          <>
            <Link to="/room-type" className={buttonVariants({ variant: "outline" })}>
              {t("rooms.roomTypes")}
            </Link>
            <Link to={buildingId ? `/add-room?buildingId=${buildingId}` : "/add-room"} className={buttonVariants()}>
              {t("rooms.add")}
            </Link>
          </>
        }
      />
      <DataTable
        columns={columns}
        page={page}
        query={query}
        filtered={Boolean(query.q || facilityId || buildingId)}
        {...listTexts(t, "rooms")}
      />
    </div>
  );
}

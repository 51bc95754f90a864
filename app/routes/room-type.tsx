import { Link, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ListToolbar } from "~/components/lists/list-toolbar";
import { RoomTabs } from "~/components/rooms/room-tabs";
import { RoomTypesTable } from "~/components/rooms/room-types-table";
import { buttonVariants } from "~/components/ui/button";
import { parseListQuery } from "~/lib/list-query";
import { screenLoader } from "~/http/screen.server";
import { listRoomTypes, ROOM_TYPE_SORTS } from "~/modules/rooms/queries.server";

/**
 * /room-type: the "Room Types" tab of Rooms (SPEC.md section 2). A server-sorted, server-paged list
 * driven by the URL (search, sort, page, size), so it works without JavaScript.
 */
export const loader = screenLoader(async ({ ctx, url }) => {
  const query = parseListQuery(url.searchParams, { sorts: ROOM_TYPE_SORTS, defaultSort: "name" });
  return { query, roomTypes: await listRoomTypes(ctx, query) };
});

export default function RoomTypes() {
  const { t } = useTranslation("rooms");
  const { query, roomTypes } = useLoaderData<typeof loader>();
  return (
    <div className="grid gap-6">
      <h1 className="text-2xl font-semibold tracking-tight">{t("roomTypes.title")}</h1>
      <RoomTabs active="roomTypes" />
      <ListToolbar
        q={query.q}
        actions={
          <Link to="/add-room-type" className={buttonVariants()}>
            {t("roomTypes.add")}
          </Link>
        }
      />
      <RoomTypesTable page={roomTypes} query={query} />
    </div>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";

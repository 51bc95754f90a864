import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormPage } from "~/components/forms/form-parts";
import { RoomForm, ROOMS_LIST } from "~/components/rooms/room-form";
import { uploadsOf } from "~/http/form-action.server";
import { intParam } from "~/lib/list-query";
import type { BuildingPickerData } from "~/http/pickers.server";
import { roomForm, roomFormOptions } from "~/http/room-form.server";
import { addAction, screenLoader } from "~/http/screen.server";
import { createRoom } from "~/modules/rooms/service.server";

/**
 * /add-room (`?buildingId=` preselects the building): the room form. `intent=add-equipment` (the
 * quantity dialog without JavaScript) answers the form with the items added; `intent=save` creates the
 * room with its items, links, incident types and files, then goes back to the rooms list.
 */
export const loader = screenLoader(async ({ ctx, url }) => {
  const options = await roomFormOptions(ctx, url.searchParams, intParam(url.searchParams, "buildingId"));
  // `?buildingId=` preselects that building when the user may put a room there.
  return { options, buildingId: options.buildings.selected?.id ?? null, maxBytes: ctx.files.maxBytes };
});

export const action = addAction({
  ...roomForm,
  list: ROOMS_LIST,
  create: async (ctx, room, formData) => createRoom(ctx, { ...room, newFiles: await uploadsOf(formData, "newFiles") }),
});

export default function AddRoom() {
  const { t } = useTranslation("rooms");
  const { options, buildingId, maxBytes } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const revision = actionData && "revision" in actionData ? actionData.revision : 0;
  // After a search of the building picker without JavaScript, its matches.
  const buildings = (actionData as { buildings?: BuildingPickerData } | undefined)?.buildings ?? options.buildings;
  return (
    <FormPage title={t("common:screens.add-room")} backTo={ROOMS_LIST} backLabel={t("room.back")}>
      <RoomForm
        key={revision}
        room={{ name: "", description: null, floor: "", buildingId, roomTypeId: null, incidentTypes: [], links: [], equipments: [] }}
        options={{ ...options, buildings }}
        mode="create"
        submitLabel={t("common:actions.add")}
        lastResult={actionData?.result}
        maxBytes={maxBytes}
      />
    </FormPage>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";

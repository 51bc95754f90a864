import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormPage } from "~/components/forms/form-parts";
import { RoomForm, ROOMS_LIST } from "~/components/rooms/room-form";
import { ADD_EQUIPMENT_INTENT, addEquipmentReply, SAVE_INTENT } from "~/components/rooms/room-form-schema";
import { readFormData, submitForm, uploadsOf } from "~/http/form-action.server";
import { intParam } from "~/lib/list-query";
import { filesContext } from "~/http/route-context.server";
import { requireUser } from "~/modules/auth/guard.server";
import { listEquipmentTypeOptions } from "~/modules/equipment/queries.server";
import { listBuildingOptions } from "~/modules/facilities/queries.server";
import { listIncidentTypeOptions } from "~/modules/incident-types/queries.server";
import { listRoomTypeOptions } from "~/modules/rooms/queries.server";
import { RoomSchema } from "~/modules/rooms/schema";
import { createRoom } from "~/modules/rooms/service.server";

/**
 * /add-room (`?buildingId=` preselects the building): the room form. `intent=add-equipment` (the
 * quantity dialog without JavaScript) answers the form with the items added; `intent=save` creates the
 * room with its items, links, incident types and files, then goes back to the rooms list.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const ctx = await filesContext({ request, context }, user);
  const [buildings, roomTypes, incidentTypes, equipmentTypes] = await Promise.all([
    listBuildingOptions(ctx),
    listRoomTypeOptions(ctx),
    listIncidentTypeOptions(ctx),
    listEquipmentTypeOptions(ctx),
  ]);
  const requested = intParam(new URL(request.url).searchParams, "buildingId");
  const buildingId = buildings.some((building) => building.id === requested) ? requested : null;
  return { options: { buildings, roomTypes, incidentTypes, equipmentTypes }, buildingId, maxBytes: ctx.files.maxBytes };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const ctx = await filesContext({ request, context }, user);
  const formData = await readFormData(request, ctx.files.maxBytes);
  if (formData.get("intent") === ADD_EQUIPMENT_INTENT) {
    const { added, result } = addEquipmentReply(formData, await listEquipmentTypeOptions(ctx));
    return data({ intent: SAVE_INTENT, result, revision: added ? Date.now() : 0 }, { status: added ? 200 : 400 });
  }
  return submitForm(
    formData,
    { intent: SAVE_INTENT, schema: RoomSchema, redirectTo: ROOMS_LIST, toast: "common:toast.created" },
    async (room) => createRoom(ctx, { ...room, newFiles: await uploadsOf(formData, "newFiles") }),
  );
}

export default function AddRoom() {
  const { t } = useTranslation("rooms");
  const { options, buildingId, maxBytes } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const revision = actionData && "revision" in actionData ? actionData.revision : 0;
  return (
    <FormPage title={t("common:screens.add-room")} backTo={ROOMS_LIST} backLabel={t("room.back")}>
      <RoomForm
        key={revision}
        room={{ name: "", description: null, floor: "", buildingId, roomTypeId: null, incidentTypes: [], links: [], equipments: [] }}
        options={options}
        mode="create"
        submitLabel={t("common:actions.add")}
        lastResult={actionData?.result}
        maxBytes={maxBytes}
      />
    </FormPage>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";

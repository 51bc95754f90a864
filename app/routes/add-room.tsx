import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormPage } from "~/components/forms/form-parts";
import { RoomForm, ROOMS_LIST } from "~/components/rooms/room-form";
import { keepInputReply } from "~/components/forms/keep-input-reply";
import { addEquipmentReply } from "~/components/rooms/room-form-schema";
import { ADD_EQUIPMENT_INTENT, SAVE_INTENT } from "~/components/rooms/room-form-intents";
import { readFormData, submitForm, uploadsOf } from "~/http/form-action.server";
import { intParam } from "~/lib/list-query";
import { buildingPickerData, type BuildingPickerData } from "~/http/pickers.server";
import { filesContext } from "~/http/route-context.server";
import { BUILDING_AFTER_FIELD, FIND_BUILDING_INTENT, MORE_BUILDINGS_INTENT } from "~/lib/pickers";
import { requireUser } from "~/modules/auth/guard.server";
import { listEquipmentTypeOptions } from "~/modules/equipment/queries.server";
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
  const params = new URL(request.url).searchParams;
  const [buildings, roomTypes, incidentTypes, equipmentTypes] = await Promise.all([
    buildingPickerData(ctx, params, intParam(params, "buildingId")),
    listRoomTypeOptions(ctx),
    listIncidentTypeOptions(ctx),
    listEquipmentTypeOptions(ctx),
  ]);
  // `?buildingId=` preselects that building when the user may put a room there.
  const buildingId = buildings.selected?.id ?? null;
  return { options: { buildings, roomTypes, incidentTypes, equipmentTypes }, buildingId, maxBytes: ctx.files.maxBytes };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const ctx = await filesContext({ request, context }, user);
  const formData = await readFormData(request, ctx.files.maxBytes);
  const intent = formData.get("intent");
  if (intent === FIND_BUILDING_INTENT || intent === MORE_BUILDINGS_INTENT) {
    // The building picker without JavaScript: the form again, input kept, with the matching buildings.
    if (intent === FIND_BUILDING_INTENT) formData.delete(BUILDING_AFTER_FIELD);
    const buildings = await buildingPickerData(ctx, formData, intParam(formData, "buildingId"));
    return data({ intent: SAVE_INTENT, result: keepInputReply(formData), revision: Date.now(), buildings });
  }
  if (intent === ADD_EQUIPMENT_INTENT) {
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

import { type ActionFunctionArgs, data, type LoaderFunctionArgs } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ARCHIVE_INTENT, ArchiveDialog, ArchiveTrigger } from "~/components/forms/archive-dialog";
import { FormPage } from "~/components/forms/form-parts";
import { useResultFor } from "~/components/forms/zod-form";
import { RoomForm, ROOMS_LIST } from "~/components/rooms/room-form";
import { keepInputReply } from "~/components/forms/keep-input-reply";
import { addEquipmentReply } from "~/components/rooms/room-form-schema";
import { ADD_EQUIPMENT_INTENT, SAVE_INTENT } from "~/components/rooms/room-form-intents";
import { buttonVariants } from "~/components/ui/button";
import { archiveAction, readFormData, submitForm, uploadsOf } from "~/http/form-action.server";
import { buildingPickerData, type BuildingPickerData } from "~/http/pickers.server";
import { filesContext } from "~/http/route-context.server";
import { intParam } from "~/lib/list-query";
import { BUILDING_AFTER_FIELD, FIND_BUILDING_INTENT, MORE_BUILDINGS_INTENT } from "~/lib/pickers";
import { orErrorPage, routeId } from "~/http/route-params.server";
import { requireUser } from "~/modules/auth/guard.server";
import { listEquipmentTypeOptions } from "~/modules/equipment/queries.server";
import { listIncidentTypeOptions } from "~/modules/incident-types/queries.server";
import { getRoomForEdit, listRoomTypeOptions } from "~/modules/rooms/queries.server";
import { RoomSchema } from "~/modules/rooms/schema";
import { archiveRoom, updateRoom } from "~/modules/rooms/service.server";

/**
 * /update-room/{id}: the room form (`intent=save`, and `intent=add-equipment` for the quantity dialog
 * without JavaScript) and the archive confirmation at `?dialog=archive` (`intent=archive`). An unknown
 * id, or another entity's, is a 404 page.
 */
export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const id = routeId(params);
  const ctx = await filesContext({ request, context }, user);
  const room = await orErrorPage(getRoomForEdit(ctx, id));
  const [buildings, roomTypes, incidentTypes, equipmentTypes] = await Promise.all([
    buildingPickerData(ctx, new URL(request.url).searchParams, room.buildingId),
    listRoomTypeOptions(ctx),
    listIncidentTypeOptions(ctx),
    listEquipmentTypeOptions(ctx),
  ]);
  return { room, options: { buildings, roomTypes, incidentTypes, equipmentTypes }, maxBytes: ctx.files.maxBytes };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const id = routeId(params);
  const ctx = await filesContext({ request, context }, user);
  const formData = await readFormData(request, ctx.files.maxBytes);
  switch (formData.get("intent") ?? SAVE_INTENT) {
    case FIND_BUILDING_INTENT:
    case MORE_BUILDINGS_INTENT: {
      // The building picker without JavaScript: the form again, input kept, with the matching buildings.
      if (formData.get("intent") === FIND_BUILDING_INTENT) formData.delete(BUILDING_AFTER_FIELD);
      const buildings = await buildingPickerData(ctx, formData, intParam(formData, "buildingId"));
      return data({ intent: SAVE_INTENT, result: keepInputReply(formData), revision: Date.now(), buildings });
    }
    case ADD_EQUIPMENT_INTENT: {
      const { added, result } = addEquipmentReply(formData, await listEquipmentTypeOptions(ctx));
      return data({ intent: SAVE_INTENT, result, revision: added ? Date.now() : 0 }, { status: added ? 200 : 400 });
    }
    case SAVE_INTENT:
      return submitForm(
        formData,
        { intent: SAVE_INTENT, schema: RoomSchema, redirectTo: ROOMS_LIST, toast: "common:toast.updated" },
        async (room) => updateRoom(ctx, id, { ...room, newFiles: await uploadsOf(formData, "newFiles") }),
      );
    case ARCHIVE_INTENT:
      return archiveAction(formData, (confirm) => archiveRoom(ctx, id, confirm), { redirectTo: ROOMS_LIST });
    default:
      throw new Response("Bad Request", { status: 400 });
  }
}

export default function UpdateRoom() {
  const { t } = useTranslation("rooms");
  const { room, options, maxBytes } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const resultFor = useResultFor();
  const revision = actionData && "revision" in actionData ? actionData.revision : 0;
  // After a search of the building picker without JavaScript, its matches.
  const buildings = (actionData as { buildings?: BuildingPickerData } | undefined)?.buildings ?? options.buildings;
  return (
    <>
      <ArchiveDialog name={room.name} details={t("room.archiveDetails")} lastResult={resultFor(ARCHIVE_INTENT)} />
      <FormPage
        title={t("common:screens.update-room")}
        subtitle={t("room.shortId", { shortId: room.shortId })}
        backTo={ROOMS_LIST}
        backLabel={t("room.back")}
        actions={
          <>
            <Link to={`/view-room/${room.id}`} className={buttonVariants({ variant: "outline" })}>
              {t("room.view")}
            </Link>
            <ArchiveTrigger>{t("room.archive")}</ArchiveTrigger>
          </>
        }
      >
        <RoomForm
          key={revision}
          room={{
            name: room.name,
            description: room.description,
            floor: room.floor,
            buildingId: room.buildingId,
            roomTypeId: room.roomTypeId,
            incidentTypes: room.incidentTypes.map((type) => type.id),
            links: room.links,
            equipments: room.equipments,
          }}
          options={{ ...options, buildings }}
          existingItems={room.equipments}
          files={room.files}
          mode="update"
          submitLabel={t("common:actions.save")}
          lastResult={resultFor(SAVE_INTENT)}
          maxBytes={maxBytes}
        />
      </FormPage>
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";

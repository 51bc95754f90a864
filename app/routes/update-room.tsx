import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ARCHIVE_INTENT, ArchiveDialog, ArchiveTrigger } from "~/components/forms/archive-dialog";
import { FormPage } from "~/components/forms/form-parts";
import { useResultFor } from "~/components/forms/zod-form";
import { RoomForm, ROOMS_LIST } from "~/components/rooms/room-form";
import { SAVE_INTENT } from "~/components/rooms/room-form-intents";
import { buttonVariants } from "~/components/ui/button";
import { uploadsOf } from "~/http/form-action.server";
import type { BuildingPickerData } from "~/http/pickers.server";
import { roomForm, roomFormOptions } from "~/http/room-form.server";
import { screenLoader, subjectById, updateAction } from "~/http/screen.server";
import { fieldFormValues } from "~/core/fields.server";
import { getRoomForEdit } from "~/modules/rooms/queries.server";
import { ROOM_FIELDS, RoomFieldsSchema } from "~/modules/rooms/schema";
import { archiveRoom, updateRoom } from "~/modules/rooms/service.server";

/**
 * /update-room/{id}: the room form (`intent=save`, and `intent=add-equipment` for the quantity dialog
 * without JavaScript) and the archive confirmation at `?dialog=archive` (`intent=archive`). An unknown
 * id, or another entity's, is a 404 page.
 */
const room = subjectById(getRoomForEdit);

export const loader = screenLoader(room, async ({ ctx, url, subject }) => ({
  room: subject,
  values: fieldFormValues(ROOM_FIELDS, subject, RoomFieldsSchema.shape),
  options: await roomFormOptions(ctx, url.searchParams, subject.buildingId),
  maxBytes: ctx.files.maxBytes,
}));

export const action = updateAction(room, {
  ...roomForm,
  list: ROOMS_LIST,
  update: async (ctx, id, value, formData) => updateRoom(ctx, id, { ...value, newFiles: await uploadsOf(formData, "newFiles") }),
  archive: archiveRoom,
});

export default function UpdateRoom() {
  const { t } = useTranslation("rooms");
  const { room, values, options, maxBytes } = useLoaderData<typeof loader>();
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
            ...values,
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

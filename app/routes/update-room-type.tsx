import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { RemoveRoomTypeDialog } from "~/components/rooms/remove-room-type-dialog";
import { ROOM_TYPES_LIST, RoomTypeForm } from "~/components/rooms/room-type-form";
import { ArchiveSchema } from "~/lib/archive";
import { fieldFormValues } from "~/core/fields.server";
import { formIntent, screenLoader, subjectById, updateAction } from "~/http/screen.server";
import { getRoomTypeForEdit, listRoomTypeOptions } from "~/modules/rooms/queries.server";
import { RemoveRoomTypeSchema, ROOM_TYPE_FIELDS, RoomTypeFieldsSchema, RoomTypeSchema } from "~/modules/rooms/schema";
import { removeRoomType, updateRoomType } from "~/modules/rooms/service.server";
import { UpdateScreen } from "~/components/forms/form-screens";

/**
 * /update-room-type/{id}: the room type form (`intent=update`) and its removal at `?dialog=archive`
 * (`intent=archive`): the retyped name, and a replacement type when rooms or incident types use it
 * (SPEC.md sections 4 and 8). An unknown id, or another entity's, is a 404 page.
 */
const RemoveFormSchema = RemoveRoomTypeSchema.extend(ArchiveSchema.shape);

const roomType = subjectById(getRoomTypeForEdit);

export const loader = screenLoader(roomType, async ({ ctx, subject }) => {
  const options = await listRoomTypeOptions(ctx);
  return {
    roomType: subject,
    // Its declared fields, and its rating messages (one column of the three languages).
    values: { ...fieldFormValues(ROOM_TYPE_FIELDS, subject, RoomTypeFieldsSchema.shape), roomTypeRatingMessages: subject.roomTypeRatingMessages },
    otherTypes: options.filter((option) => option.id !== subject.id),
  };
});

export const action = updateAction(roomType, {
  schema: RoomTypeSchema,
  list: ROOM_TYPES_LIST,
  update: updateRoomType,
  // The removal of SPEC.md section 8: the retyped name, and a replacement when the type is in use.
  archive: {
    intent: formIntent({ schema: RemoveFormSchema, redirectTo: ROOM_TYPES_LIST, toast: "common:toast.archived" }, ({ confirmName, replacementRoomType }, { ctx, subject }) =>
      removeRoomType(ctx, subject.id, { replacementRoomType }, { confirmName }),
    ),
  },
});

export default function UpdateRoomType() {
  const { t } = useTranslation("rooms");
  const { roomType, values, otherTypes } = useLoaderData<typeof loader>();
  return (
    <UpdateScreen
      screen="update-room-type"
      subtitle={t("roomType.linkedRooms", { count: roomType.linkedRoomsCount })}
      backTo={ROOM_TYPES_LIST}
      backLabel={t("roomType.back")}
      archiveLabel={t("roomType.remove")}
      archiveDialog={(lastResult) => (
        <RemoveRoomTypeDialog
          name={roomType.roomTypeName}
          rooms={roomType.linkedRoomsCount}
          incidentTypes={roomType.incidentTypesCount}
          otherTypes={otherTypes}
          lastResult={lastResult}
        />
      )}
      form={(props) => <RoomTypeForm key={`${roomType.roomTypeName}|${roomType.tags.join("|")}`} roomType={values} {...props} />}
    />
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";

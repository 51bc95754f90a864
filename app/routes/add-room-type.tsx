import { useActionData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormPage } from "~/components/forms/form-parts";
import { ROOM_TYPES_LIST, RoomTypeForm } from "~/components/rooms/room-type-form";
import { addAction, screenLoader } from "~/http/screen.server";
import { RoomTypeSchema } from "~/modules/rooms/schema";
import { createRoomType } from "~/modules/rooms/service.server";

/** /add-room-type: name and tags; on success back to the room types list. */
export const loader = screenLoader(() => null);
export const action = addAction({ schema: RoomTypeSchema, list: ROOM_TYPES_LIST, create: createRoomType });

export default function AddRoomType() {
  const { t } = useTranslation("rooms");
  const actionData = useActionData<typeof action>();
  return (
    <FormPage title={t("common:screens.add-room-type")} backTo={ROOM_TYPES_LIST} backLabel={t("roomType.back")}>
      <RoomTypeForm intent="create" submitLabel={t("common:actions.add")} lastResult={actionData?.result} />
    </FormPage>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";

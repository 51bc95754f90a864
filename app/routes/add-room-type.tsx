import { useTranslation } from "react-i18next";
import { ROOM_TYPES_LIST, RoomTypeForm } from "~/components/rooms/room-type-form";
import { addAction, screenLoader } from "~/http/screen.server";
import { RoomTypeSchema } from "~/modules/rooms/schema";
import { createRoomType } from "~/modules/rooms/service.server";
import { AddScreen } from "~/components/forms/form-screens";

/** /add-room-type: name and tags; on success back to the room types list. */
export const loader = screenLoader(() => null);
export const action = addAction({ schema: RoomTypeSchema, list: ROOM_TYPES_LIST, create: createRoomType });

export default function AddRoomType() {
  const { t } = useTranslation("rooms");
  return <AddScreen screen="add-room-type" backTo={ROOM_TYPES_LIST} backLabel={t("roomType.back")} form={(props) => <RoomTypeForm {...props} />} />;
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";

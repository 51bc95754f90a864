import { type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormPage } from "~/components/forms/form-parts";
import { ROOM_TYPES_LIST, RoomTypeForm } from "~/components/rooms/room-type-form";
import { formDataOf, submitForm } from "~/http/form-action.server";
import { serviceContext } from "~/http/route-context.server";
import { requireUser } from "~/modules/auth/guard.server";
import { RoomTypeSchema } from "~/modules/rooms/schema";
import { createRoomType } from "~/modules/rooms/service.server";

/** /add-room-type: name and tags; on success back to the room types list. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const ctx = await serviceContext({ request, context }, user);
  return submitForm(
    await formDataOf(request),
    { intent: "create", schema: RoomTypeSchema, redirectTo: ROOM_TYPES_LIST, toast: "common:toast.created" },
    (roomType) => createRoomType(ctx, roomType),
  );
}

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

import { type ActionFunctionArgs, type LoaderFunctionArgs } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ARCHIVE_INTENT, ArchiveTrigger } from "~/components/forms/archive-dialog";
import { FormPage } from "~/components/forms/form-parts";
import { useResultFor } from "~/components/forms/zod-form";
import { RemoveRoomTypeDialog } from "~/components/rooms/remove-room-type-dialog";
import { ROOM_TYPES_LIST, RoomTypeForm } from "~/components/rooms/room-type-form";
import { ArchiveSchema } from "~/lib/archive";
import { formDataOf, submitForm } from "~/http/form-action.server";
import { serviceContext } from "~/http/route-context.server";
import { orErrorPage, routeId } from "~/http/route-params.server";
import { requireUser } from "~/modules/auth/guard.server";
import { getRoomTypeForEdit, listRoomTypeOptions } from "~/modules/rooms/queries.server";
import { RemoveRoomTypeSchema, RoomTypeSchema } from "~/modules/rooms/schema";
import { removeRoomType, updateRoomType } from "~/modules/rooms/service.server";

/**
 * /update-room-type/{id}: the room type form (`intent=update`) and its removal at `?dialog=archive`
 * (`intent=archive`): the retyped name, and a replacement type when rooms or incident types use it
 * (SPEC.md sections 4 and 8). An unknown id, or another entity's, is a 404 page.
 */
const RemoveFormSchema = RemoveRoomTypeSchema.extend(ArchiveSchema.shape);

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const user = await requireUser(request, context);
  const id = routeId(params);
  const ctx = await serviceContext({ request, context }, user);
  const [roomType, options] = await Promise.all([orErrorPage(getRoomTypeForEdit(ctx, id)), listRoomTypeOptions(ctx)]);
  return { roomType, otherTypes: options.filter((option) => option.id !== id) };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const id = routeId(params);
  const ctx = await serviceContext({ request, context }, user);
  const formData = await formDataOf(request);
  switch (formData.get("intent")) {
    case "update":
      return submitForm(
        formData,
        { intent: "update", schema: RoomTypeSchema, redirectTo: ROOM_TYPES_LIST, toast: "common:toast.updated" },
        (roomType) => updateRoomType(ctx, id, roomType),
      );
    case ARCHIVE_INTENT:
      // The removal of SPEC.md section 8: the retyped name, and a replacement when the type is in use.
      return submitForm(
        formData,
        { intent: ARCHIVE_INTENT, schema: RemoveFormSchema, redirectTo: ROOM_TYPES_LIST, toast: "common:toast.archived" },
        ({ confirmName, replacementRoomType }) => removeRoomType(ctx, id, { replacementRoomType }, { confirmName }),
      );
    default:
      throw new Response("Bad Request", { status: 400 });
  }
}

export default function UpdateRoomType() {
  const { t } = useTranslation("rooms");
  const { roomType, otherTypes } = useLoaderData<typeof loader>();
  const resultFor = useResultFor();
  return (
    <>
      <RemoveRoomTypeDialog
        name={roomType.roomTypeName}
        rooms={roomType.linkedRoomsCount}
        incidentTypes={roomType.incidentTypesCount}
        otherTypes={otherTypes}
        lastResult={resultFor(ARCHIVE_INTENT)}
      />
      <FormPage
        title={t("common:screens.update-room-type")}
        subtitle={t("roomType.linkedRooms", { count: roomType.linkedRoomsCount })}
        backTo={ROOM_TYPES_LIST}
        backLabel={t("roomType.back")}
        actions={<ArchiveTrigger>{t("roomType.remove")}</ArchiveTrigger>}
      >
        <RoomTypeForm
          key={`${roomType.roomTypeName}|${roomType.tags.join("|")}`}
          roomType={roomType}
          intent="update"
          submitLabel={t("common:actions.save")}
          lastResult={resultFor("update")}
        />
      </FormPage>
    </>
  );
}

export { ScreenErrorBoundary as ErrorBoundary } from "~/components/shell/screen-error";

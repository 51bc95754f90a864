import { parseWithZod } from "@conform-to/zod/v4";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { z } from "zod";
import { ArchiveTrigger } from "~/components/forms/archive-dialog";
import { FormPage } from "~/components/forms/form-parts";
import { RemoveRoomTypeDialog } from "~/components/rooms/remove-room-type-dialog";
import { ROOM_TYPES_LIST, RoomTypeForm } from "~/components/rooms/room-type-form";
import { detectLocale } from "~/i18n.server";
import type { ServiceContext } from "~/lib/context.server";
import { NotFoundError } from "~/lib/errors";
import { formFailed, serviceFailed } from "~/lib/form-action.server";
import { toastHeader } from "~/lib/toast.server";
import { requireUser } from "~/modules/auth/guard.server";
import { WRONG_NAME } from "~/modules/facilities/schema";
import { getRoomType, listRoomTypeOptions } from "~/modules/rooms/queries.server";
import { RemoveRoomTypeSchema, RoomTypeSchema } from "~/modules/rooms/schema";
import { removeRoomType, updateRoomType } from "~/modules/rooms/service.server";
import { runtime } from "~/runtime.server";

/**
 * /update-room-type/{id}: the room type form (`intent=update`) and its removal at `?dialog=archive`
 * (`intent=archive`): the retyped name, and a replacement type when rooms or incident types use it
 * (SPEC.md sections 4 and 8). An unknown id, or another entity's, is a 404 page.
 */
export const meta: MetaFunction = () => [{ title: "Caretaker" }];

const RemoveFormSchema = RemoveRoomTypeSchema.extend({
  confirmName: z.string({ error: WRONG_NAME }),
});

async function setup(request: Request, context: LoaderFunctionArgs["context"], idParam: string | undefined) {
  const user = await requireUser(request, context);
  const id = idParam && /^\d{1,9}$/.test(idParam) ? Number(idParam) : null;
  if (!id) throw new Response("Not Found", { status: 404 });
  const ctx: ServiceContext = {
    db: (await runtime()).database.db,
    entityId: user.entityId,
    actor: { id: user.id, role: user.role },
    locale: await detectLocale(request),
  };
  return { ctx, id };
}

async function loadRoomType(ctx: ServiceContext, id: number) {
  try {
    return await getRoomType(ctx, id);
  } catch (error) {
    if (error instanceof NotFoundError) throw new Response("Not Found", { status: 404 });
    throw error;
  }
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { ctx, id } = await setup(request, context, params.id);
  const [roomType, options] = await Promise.all([loadRoomType(ctx, id), listRoomTypeOptions(ctx)]);
  return { roomType, otherTypes: options.filter((option) => option.id !== id) };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { ctx, id } = await setup(request, context, params.id);
  const formData = await request.formData();
  const intent = formData.get("intent");
  switch (intent) {
    case "update": {
      const submission = parseWithZod(formData, { schema: RoomTypeSchema });
      if (submission.status !== "success") return formFailed(intent, submission.reply());
      try {
        await updateRoomType(ctx, id, submission.value);
      } catch (error) {
        return serviceFailed(intent, (options) => submission.reply(options), error);
      }
      return redirect(ROOM_TYPES_LIST, {
        headers: { "Set-Cookie": await toastHeader({ type: "success", key: "common:toast.updated" }) },
      });
    }
    case "archive": {
      const submission = parseWithZod(formData, { schema: RemoveFormSchema });
      if (submission.status !== "success") return formFailed(intent, submission.reply());
      const roomType = await loadRoomType(ctx, id);
      if (submission.value.confirmName.trim() !== roomType.roomTypeName.trim()) {
        const inUse = roomType.linkedRoomsCount > 0 || roomType.incidentTypesCount > 0;
        const fieldErrors: Record<string, string[]> = { confirmName: [WRONG_NAME] };
        if (inUse && submission.value.replacementRoomType === null) fieldErrors.replacementRoomType = ["rooms:validation.replacementRequired"];
        return formFailed(intent, submission.reply({ fieldErrors }));
      }
      try {
        await removeRoomType(ctx, id, { replacementRoomType: submission.value.replacementRoomType });
      } catch (error) {
        return serviceFailed(intent, (options) => submission.reply(options), error);
      }
      return redirect(ROOM_TYPES_LIST, {
        headers: { "Set-Cookie": await toastHeader({ type: "success", key: "common:toast.archived" }) },
      });
    }
    default:
      throw new Response("Bad Request", { status: 400 });
  }
}

export default function UpdateRoomType() {
  const { t } = useTranslation("rooms");
  const { roomType, otherTypes } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const resultFor = (intent: string) => (actionData?.intent === intent ? actionData.result : undefined);
  return (
    <>
      <RemoveRoomTypeDialog
        name={roomType.roomTypeName}
        rooms={roomType.linkedRoomsCount}
        incidentTypes={roomType.incidentTypesCount}
        otherTypes={otherTypes}
        lastResult={resultFor("archive")}
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

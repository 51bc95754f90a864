import { parseWithZod } from "@conform-to/zod/v4";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { useActionData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormPage } from "~/components/forms/form-parts";
import { ROOM_TYPES_LIST, RoomTypeForm } from "~/components/rooms/room-type-form";
import { detectLocale } from "~/i18n.server";
import type { ServiceContext } from "~/lib/context.server";
import { formFailed, serviceFailed } from "~/lib/form-action.server";
import { toastHeader } from "~/lib/toast.server";
import { requireUser } from "~/modules/auth/guard.server";
import { RoomTypeSchema } from "~/modules/rooms/schema";
import { createRoomType } from "~/modules/rooms/service.server";
import { runtime } from "~/runtime.server";

/** /add-room-type: name and tags; on success back to the room types list. */
export const meta: MetaFunction = () => [{ title: "Caretaker" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  return null;
}

export async function action({ request, context }: ActionFunctionArgs) {
  const user = await requireUser(request, context);
  const ctx: ServiceContext = {
    db: (await runtime()).database.db,
    entityId: user.entityId,
    actor: { id: user.id, role: user.role },
    locale: await detectLocale(request),
  };
  const submission = parseWithZod(await request.formData(), { schema: RoomTypeSchema });
  if (submission.status !== "success") return formFailed("create", submission.reply());
  try {
    await createRoomType(ctx, submission.value);
  } catch (error) {
    return serviceFailed("create", (options) => submission.reply(options), error);
  }
  return redirect(ROOM_TYPES_LIST, {
    headers: { "Set-Cookie": await toastHeader({ type: "success", key: "common:toast.created" }) },
  });
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

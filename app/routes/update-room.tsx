import { parseWithZod } from "@conform-to/zod/v4";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { Link, useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { ArchiveDialog, ArchiveTrigger } from "~/components/forms/archive-dialog";
import { FormPage } from "~/components/forms/form-parts";
import { RoomForm, ROOMS_LIST } from "~/components/rooms/room-form";
import { ADD_EQUIPMENT_INTENT, addEquipmentReply, SAVE_INTENT } from "~/components/rooms/room-form-schema";
import { buttonVariants } from "~/components/ui/button";
import { detectLocale } from "~/i18n.server";
import { NotFoundError } from "~/lib/errors";
import { formFailed, readFormData, serviceFailed, toUpload, uploadedFiles } from "~/lib/form-action.server";
import { toastHeader } from "~/lib/toast.server";
import { requireUser } from "~/modules/auth/guard.server";
import { listEquipmentTypeOptions } from "~/modules/equipment/queries.server";
import { listBuildingOptions } from "~/modules/facilities/queries.server";
import { ArchiveSchema } from "~/modules/facilities/schema";
import type { FilesContext } from "~/modules/files/uploads.server";
import { listIncidentTypeOptions } from "~/modules/incident-types/queries.server";
import { getRoom, listRoomTypeOptions } from "~/modules/rooms/queries.server";
import { RoomSchema } from "~/modules/rooms/schema";
import { archiveRoom, updateRoom } from "~/modules/rooms/service.server";
import { runtime } from "~/runtime.server";

/**
 * /update-room/{id}: the room form (`intent=save`, and `intent=add-equipment` for the quantity dialog
 * without JavaScript) and the archive confirmation at `?dialog=archive` (`intent=archive`). An unknown
 * id, or another entity's, is a 404 page.
 */
export const meta: MetaFunction = () => [{ title: "Caretaker" }];

async function setup(request: Request, context: LoaderFunctionArgs["context"], idParam: string | undefined) {
  const user = await requireUser(request, context);
  const id = idParam && /^\d{1,9}$/.test(idParam) ? Number(idParam) : null;
  if (!id) throw new Response("Not Found", { status: 404 });
  const rt = await runtime();
  const ctx: FilesContext = {
    db: rt.database.db,
    entityId: user.entityId,
    actor: { id: user.id, role: user.role },
    locale: await detectLocale(request),
    files: rt.files,
  };
  return { ctx, id };
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { ctx, id } = await setup(request, context, params.id);
  const [room, buildings, roomTypes, incidentTypes, equipmentTypes] = await Promise.all([
    getRoom(ctx, id).catch((error: unknown) => {
      if (error instanceof NotFoundError) throw new Response("Not Found", { status: 404 });
      throw error;
    }),
    listBuildingOptions(ctx),
    listRoomTypeOptions(ctx),
    listIncidentTypeOptions(ctx),
    listEquipmentTypeOptions(ctx),
  ]);
  return { room, options: { buildings, roomTypes, incidentTypes, equipmentTypes }, maxBytes: ctx.files.maxBytes };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const { ctx, id } = await setup(request, context, params.id);
  const formData = await readFormData(request, ctx.files.maxBytes);
  const intent = formData.get("intent") ?? SAVE_INTENT;
  switch (intent) {
    case ADD_EQUIPMENT_INTENT: {
      const { added, result } = addEquipmentReply(formData, await listEquipmentTypeOptions(ctx));
      return data({ intent: SAVE_INTENT, result, revision: added ? Date.now() : 0 }, { status: added ? 200 : 400 });
    }
    case SAVE_INTENT: {
      const submission = parseWithZod(formData, { schema: RoomSchema });
      if (submission.status !== "success") return formFailed(SAVE_INTENT, submission.reply());
      try {
        const newFiles = await Promise.all(uploadedFiles(formData, "newFiles").map(toUpload));
        await updateRoom(ctx, id, { ...submission.value, newFiles });
      } catch (error) {
        return serviceFailed(SAVE_INTENT, (options) => submission.reply(options), error);
      }
      return redirect(ROOMS_LIST, {
        headers: { "Set-Cookie": await toastHeader({ type: "success", key: "common:toast.updated" }) },
      });
    }
    case "archive": {
      const submission = parseWithZod(formData, { schema: ArchiveSchema });
      if (submission.status !== "success") return formFailed(intent, submission.reply());
      try {
        await archiveRoom(ctx, id, submission.value);
      } catch (error) {
        return serviceFailed(intent, (options) => submission.reply(options), error);
      }
      return redirect(ROOMS_LIST, {
        headers: { "Set-Cookie": await toastHeader({ type: "success", key: "common:toast.archived" }) },
      });
    }
    default:
      throw new Response("Bad Request", { status: 400 });
  }
}

export default function UpdateRoom() {
  const { t } = useTranslation("rooms");
  const { room, options, maxBytes } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const resultFor = (intent: string) => (actionData?.intent === intent ? actionData.result : undefined);
  const revision = actionData && "revision" in actionData ? actionData.revision : 0;
  return (
    <>
      <ArchiveDialog name={room.name} details={t("room.archiveDetails")} lastResult={resultFor("archive")} />
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
          options={options}
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

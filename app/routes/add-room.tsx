import { parseWithZod } from "@conform-to/zod/v4";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction, redirect } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { useTranslation } from "react-i18next";
import { FormPage } from "~/components/forms/form-parts";
import { RoomForm, ROOMS_LIST } from "~/components/rooms/room-form";
import { ADD_EQUIPMENT_INTENT, addEquipmentReply, SAVE_INTENT } from "~/components/rooms/room-form-schema";
import { detectLocale } from "~/i18n.server";
import { intParam } from "~/lib/list-query";
import { formFailed, readFormData, serviceFailed, toUpload, uploadedFiles } from "~/lib/form-action.server";
import { toastHeader } from "~/lib/toast.server";
import { requireUser } from "~/modules/auth/guard.server";
import { listEquipmentTypeOptions } from "~/modules/equipment/queries.server";
import { listBuildingOptions } from "~/modules/facilities/queries.server";
import type { FilesContext } from "~/modules/files/uploads.server";
import { listIncidentTypeOptions } from "~/modules/incident-types/queries.server";
import { listRoomTypeOptions } from "~/modules/rooms/queries.server";
import { RoomSchema } from "~/modules/rooms/schema";
import { createRoom } from "~/modules/rooms/service.server";
import { runtime } from "~/runtime.server";

/**
 * /add-room (`?buildingId=` preselects the building): the room form. `intent=add-equipment` (the
 * quantity dialog without JavaScript) answers the form with the items added; `intent=save` creates the
 * room with its items, links, incident types and files, then goes back to the rooms list.
 */
export const meta: MetaFunction = () => [{ title: "Caretaker" }];

async function setup(request: Request, context: LoaderFunctionArgs["context"]) {
  const user = await requireUser(request, context);
  const rt = await runtime();
  const ctx: FilesContext = {
    db: rt.database.db,
    entityId: user.entityId,
    actor: { id: user.id, role: user.role },
    locale: await detectLocale(request),
    files: rt.files,
  };
  return ctx;
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const ctx = await setup(request, context);
  const [buildings, roomTypes, incidentTypes, equipmentTypes] = await Promise.all([
    listBuildingOptions(ctx),
    listRoomTypeOptions(ctx),
    listIncidentTypeOptions(ctx),
    listEquipmentTypeOptions(ctx),
  ]);
  const requested = intParam(new URL(request.url).searchParams, "buildingId");
  const buildingId = buildings.some((building) => building.id === requested) ? requested : null;
  return { options: { buildings, roomTypes, incidentTypes, equipmentTypes }, buildingId, maxBytes: ctx.files.maxBytes };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const ctx = await setup(request, context);
  const formData = await readFormData(request, ctx.files.maxBytes);
  if (formData.get("intent") === ADD_EQUIPMENT_INTENT) {
    const { added, result } = addEquipmentReply(formData, await listEquipmentTypeOptions(ctx));
    return data({ intent: SAVE_INTENT, result, revision: added ? Date.now() : 0 }, { status: added ? 200 : 400 });
  }
  const submission = parseWithZod(formData, { schema: RoomSchema });
  if (submission.status !== "success") return formFailed(SAVE_INTENT, submission.reply());
  try {
    const newFiles = await Promise.all(uploadedFiles(formData, "newFiles").map(toUpload));
    await createRoom(ctx, { ...submission.value, newFiles });
  } catch (error) {
    return serviceFailed(SAVE_INTENT, (options) => submission.reply(options), error);
  }
  return redirect(ROOMS_LIST, {
    headers: { "Set-Cookie": await toastHeader({ type: "success", key: "common:toast.created" }) },
  });
}

export default function AddRoom() {
  const { t } = useTranslation("rooms");
  const { options, buildingId, maxBytes } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const revision = actionData && "revision" in actionData ? actionData.revision : 0;
  return (
    <FormPage title={t("common:screens.add-room")} backTo={ROOMS_LIST} backLabel={t("room.back")}>
      <RoomForm
        key={revision}
        room={{ name: "", description: null, floor: "", buildingId, roomTypeId: null, incidentTypes: [], links: [], equipments: [] }}
        options={options}
        mode="create"
        submitLabel={t("common:actions.add")}
        lastResult={actionData?.result}
        maxBytes={maxBytes}
      />
    </FormPage>
  );
}

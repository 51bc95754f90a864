import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "@remix-run/node";
import { z } from "zod";
import type { ServiceContext } from "~/core/context.server";
import { equipmentRowsOf, newEquipmentRows } from "~/lib/equipment-rows";
import { intParam } from "~/lib/list-query";
import { BUILDING_AFTER_FIELD, FIND_BUILDING_INTENT, MORE_BUILDINGS_INTENT } from "~/lib/pickers";
import { ADD_EQUIPMENT_INTENT, SAVE_INTENT } from "~/lib/room-form-intents";
import { listEquipmentTypeOptions } from "~/modules/equipment/queries.server";
import { listIncidentTypeOptions } from "~/modules/incident-types/queries.server";
import { listRoomTypeOptions } from "~/modules/rooms/queries.server";
import { AddEquipmentSchema, RoomSchema } from "~/modules/rooms/schema";
import { buildingPickerData, keepInputReply } from "./pickers.server";
import type { IntentArgs } from "./screen.server";

/**
 * What the room form of /add-room and /update-room/{id} needs from the server besides the verbs: its
 * options, and the answers of its buttons that save nothing (the building picker's search and "More
 * buildings", the quantity dialog's "Add" without JavaScript), which render the form again, input kept.
 */

/** The form's options: the building picker (`buildingId` chosen, its search from `params`), room types, incident types, generic equipment. */
export async function roomFormOptions(ctx: ServiceContext, params: URLSearchParams, buildingId: number | null) {
  const [buildings, roomTypes, incidentTypes, equipmentTypes] = await Promise.all([
    buildingPickerData(ctx, params, buildingId),
    listRoomTypeOptions(ctx),
    listIncidentTypeOptions(ctx),
    listEquipmentTypeOptions(ctx),
  ]);
  return { buildings, roomTypes, incidentTypes, equipmentTypes };
}

/** The building picker without JavaScript: the form again, input kept, with the matching buildings. */
async function findBuildings({ ctx, formData, intent }: IntentArgs<unknown>) {
  if (intent === FIND_BUILDING_INTENT) formData.delete(BUILDING_AFTER_FIELD);
  const buildings = await buildingPickerData(ctx, formData, intParam(formData, "buildingId"));
  return data({ intent: SAVE_INTENT, result: keepInputReply(formData), revision: Date.now(), buildings });
}

const AddEquipmentFormSchema = z.object({ addEquipment: AddEquipmentSchema });

/**
 * The quantity dialog without JavaScript (`intent=add-equipment`): checks `addEquipment.*`; when valid,
 * the answer is the submitted form with `quantity` rows of the chosen generic equipment added to
 * `equipments` (and the dialog emptied), to render as the form's new initial value (a new `revision`).
 */
async function addEquipment({ ctx, formData }: IntentArgs<unknown>) {
  const submission = parseWithZod(formData, { schema: AddEquipmentFormSchema });
  const answer = (added: boolean, errors?: Record<string, string[]>) =>
    data({ intent: SAVE_INTENT, result: submission.reply(errors && { fieldErrors: errors }), revision: added ? Date.now() : 0 }, { status: added ? 200 : 400 });
  if (submission.status !== "success") return answer(false);
  const { equipmentTypeId, quantity } = submission.value.addEquipment;
  const type = (await listEquipmentTypeOptions(ctx)).find((option) => option.id === equipmentTypeId);
  if (!type) return answer(false, { "addEquipment.equipmentTypeId": ["equipment:errors.equipmentTypeNotFound"] });
  const payload = submission.payload as Record<string, unknown>;
  const current = equipmentRowsOf(payload.equipments);
  payload.equipments = [...current, ...newEquipmentRows(current, type, quantity)];
  delete payload.addEquipment;
  delete payload.intent;
  return answer(true);
}

/**
 * The room form as /add-room and /update-room/{id} post it (addAction, updateAction): RoomSchema under
 * `intent=save` (also a list button's post, which names no intent), multipart, and the intents that
 * save nothing.
 */
export const roomForm = {
  schema: RoomSchema,
  intent: SAVE_INTENT,
  files: true,
  listButtons: true,
  helpers: { [FIND_BUILDING_INTENT]: findBuildings, [MORE_BUILDINGS_INTENT]: findBuildings, [ADD_EQUIPMENT_INTENT]: addEquipment },
};

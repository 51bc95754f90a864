import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { z } from "zod";
import { AddEquipmentSchema, type AddEquipmentInput, type RoomInput } from "~/modules/rooms/schema";
import { equipmentRowsOf, newEquipmentRows } from "./equipment-rows";

/**
 * The room form's two submit intents (client-safe): `save` posts the room (RoomSchema), the quantity
 * dialog's `add-equipment` posts the same form to add items; only its `addEquipment.*` fields are
 * checked then.
 */
export const SAVE_INTENT = "save";
export const ADD_EQUIPMENT_INTENT = "add-equipment";

export const AddEquipmentFormSchema = z.object({ addEquipment: AddEquipmentSchema });

/** The form's fields: the room, the quantity dialog, and the new files (their errors come back under `newFiles`). */
export type RoomFormShape = RoomInput & { addEquipment?: AddEquipmentInput; newFiles?: unknown };

/**
 * The quantity dialog without JavaScript (`intent=add-equipment`): checks `addEquipment.*`; when
 * valid, the answer is the submitted form with `quantity` rows of the chosen generic equipment added
 * to `equipments` (and the dialog emptied), to render as the form's new initial value.
 */
export function addEquipmentReply(
  formData: FormData,
  equipmentTypes: { id: number; name: string }[],
): { added: boolean; result: SubmissionResult<string[]> } {
  const submission = parseWithZod(formData, { schema: AddEquipmentFormSchema });
  if (submission.status !== "success") return { added: false, result: submission.reply() };
  const { equipmentTypeId, quantity } = submission.value.addEquipment;
  const type = equipmentTypes.find((option) => option.id === equipmentTypeId);
  if (!type) {
    return {
      added: false,
      result: submission.reply({ fieldErrors: { "addEquipment.equipmentTypeId": ["equipment:errors.equipmentTypeNotFound"] } }),
    };
  }
  const payload = submission.payload as Record<string, unknown>;
  const current = equipmentRowsOf(payload.equipments);
  payload.equipments = [...current, ...newEquipmentRows(current, type, quantity)];
  delete payload.addEquipment;
  delete payload.intent;
  return { added: true, result: submission.reply() };
}

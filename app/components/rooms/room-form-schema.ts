import type { SubmissionResult } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import { z } from "zod";
import { AddEquipmentSchema } from "~/modules/rooms/schema";
import { equipmentRowsOf, newEquipmentRows } from "./equipment-rows";

export { ADD_EQUIPMENT_INTENT, type RoomFormShape, SAVE_INTENT } from "./room-form-intents";

export const AddEquipmentFormSchema = z.object({ addEquipment: AddEquipmentSchema });


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

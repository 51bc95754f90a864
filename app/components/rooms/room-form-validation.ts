import { parseWithZod } from "@conform-to/zod/v4";
import type { FormValidator } from "~/components/forms/zod-form";
import { RoomSchema } from "~/modules/rooms/schema";
import { ADD_EQUIPMENT_INTENT } from "./room-form-intents";
import { AddEquipmentFormSchema } from "./room-form-schema";

/**
 * The room form's checks in the browser, loaded when the form is first used (decision 021): the
 * quantity dialog's fields for `add-equipment`, the room for every other submission.
 */
export const validateRoomForm: FormValidator = ({ formData }) =>
  formData.get("intent") === ADD_EQUIPMENT_INTENT
    ? parseWithZod(formData, { schema: AddEquipmentFormSchema })
    : parseWithZod(formData, { schema: RoomSchema });

/** The quantity dialog's fields, for adding the rows in the browser. */
export const parseAddEquipment = (formData: FormData) => parseWithZod(formData, { schema: AddEquipmentFormSchema });

export type RoomFormValidation = { validateRoomForm: FormValidator; parseAddEquipment: typeof parseAddEquipment };

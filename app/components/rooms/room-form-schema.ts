import { z } from "zod";
import { AddEquipmentSchema } from "~/modules/rooms/schema";

export { ADD_EQUIPMENT_INTENT, type RoomFormShape, SAVE_INTENT } from "./room-form-intents";

export const AddEquipmentFormSchema = z.object({ addEquipment: AddEquipmentSchema });
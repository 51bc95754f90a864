import type { AddEquipmentInput, RoomInput } from "~/modules/rooms/schema";

export { ADD_EQUIPMENT_INTENT, SAVE_INTENT } from "~/lib/room-form-intents";

/** The form's fields: the room, the quantity dialog, and the new files (their errors come back under `newFiles`). */
export type RoomFormShape = RoomInput & { addEquipment?: AddEquipmentInput; newFiles?: unknown };

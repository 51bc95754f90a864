/**
 * The room form's two submit intents (client-safe, without zod: decision 021): `save` posts the room
 * (RoomSchema), the quantity dialog's `add-equipment` posts the same form to add items; only its
 * `addEquipment.*` fields are checked then.
 */
export const SAVE_INTENT = "save";
export const ADD_EQUIPMENT_INTENT = "add-equipment";

import { z } from "zod";
import { apiFiles, idRefs, tagLabels } from "~/modules/files/api-body";
import { idField, INVALID, optionalText } from "~/lib/schema-helpers";
import { NO_EQUIPMENT, RoomSchema, RoomTypeSchema, UpdateRoomSchema } from "./schema";

/**
 * The REST bodies of rooms and room types (SPEC.md section 7) mapped onto the service inputs.
 * Client-safe; messages are i18n keys.
 */

/** One generic equipment of a new room with the internal reference of each item to create. */
const RoomEquipmentGroupSchema = z.object({
  equipmentTypeId: idField("rooms:validation.equipmentRequired"),
  internalReferences: z.array(optionalText(100), { error: INVALID }).max(500, INVALID),
});

/**
 * POST /api/facilities/rooms: the room fields plus `roomEquipments` (each `{ equipmentTypeId,
 * internalReferences }`, one item per reference; an empty reference gets the default one) and
 * `newFiles`. `incidentTypes` may be ids or objects with an `id`.
 */
export const CreateRoomBodySchema = RoomSchema.omit({ equipments: true, deletedFiles: true })
  .extend({
    incidentTypes: idRefs(),
    roomEquipments: z
      .array(RoomEquipmentGroupSchema, { error: NO_EQUIPMENT })
      .min(1, NO_EQUIPMENT)
      .transform((groups) =>
        groups.flatMap((g) =>
          g.internalReferences.map((internalReference) => ({ id: null, equipmentTypeId: g.equipmentTypeId, internalReference })),
        ),
      )
      .refine((items) => items.length > 0, NO_EQUIPMENT),
    newFiles: apiFiles(),
  })
  .transform(({ roomEquipments, ...room }) => ({ ...room, equipments: roomEquipments }));

/**
 * PUT /api/facilities/rooms/{id} (SPEC.md section 7): id (optional, must be the address's), name,
 * description, roomTypeId, incidentTypes, floor, equipments (`{ id?, equipmentTypeId, internalReference }`;
 * items left out are deleted), links, newFiles, deletedFiles; `buildingId` is optional (left out: the
 * room stays in its building).
 */
export const UpdateRoomBodySchema = UpdateRoomSchema.extend({
  id: z.number({ error: INVALID }).int(INVALID).positive(INVALID).nullish(),
  incidentTypes: idRefs(),
  newFiles: apiFiles(),
});

/** POST and PUT /api/facilities/rooms/roomtype: roomTypeName, tags (strings or `{ label }`). */
export const RoomTypeBodySchema = RoomTypeSchema.extend({ tags: tagLabels() });

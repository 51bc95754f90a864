import { z } from "zod";
import { ROOM_LINK_TYPE_VALUES, type RoomLinkType } from "~/db/enums";
import { defineFields, type FieldDeclaration, textMax } from "~/lib/fields";
import { idField, idList, INVALID, optionalText, requiredText, tagsField } from "~/lib/schema-helpers";
import { RATING_LANGUAGES } from "./rating-languages";

/**
 * Rooms and room types (SPEC.md sections 3, 5, 7). Client-safe; messages are i18n keys.
 */
const RATING_MESSAGE_MAX = 200;

/**
 * A room type's rating messages (SPEC.md section 3, roomTypeRatingMessages): the question shown to
 * occupiers, at most one per language. A blank message is no message (the form posts all three).
 */
export const ratingMessagesField = () =>
  z
    .array(
      z.object({
        language: z.coerce.number().int().refine((n) => (RATING_LANGUAGES as readonly number[]).includes(n), INVALID),
        message: z.string().trim().max(RATING_MESSAGE_MAX, "rooms:validation.ratingMessageMax").nullish(),
      }),
    )
    .max(RATING_LANGUAGES.length)
    .optional()
    .transform((items) => {
      const kept = new Map<number, string>();
      for (const item of items ?? []) if (item.message && !kept.has(item.language)) kept.set(item.language, item.message);
      return [...kept].map(([language, message]) => ({ language: language as 0 | 1 | 2, message }));
    });

export const RoomTypeSchema = z.object({
  roomTypeName: requiredText(200, "rooms:validation.nameRequired"),
  tags: tagsField(),
  roomTypeRatingMessages: ratingMessagesField(),
});
export type RoomTypeInput = z.input<typeof RoomTypeSchema>;

/** A room type's own fields, kept as they are in its table; its rating messages are one column of the three languages. */
export const RoomTypeFieldsSchema = RoomTypeSchema.omit({ roomTypeRatingMessages: true });

/** The rating message of one language as an import column and an export cell (language 0 English, 1 French, 2 Dutch). */
const ratingMessage = (language: 0 | 1 | 2, example: string): FieldDeclaration => ({
  kind: "text",
  max: RATING_MESSAGE_MAX,
  example,
  input: null,
  row: "roomTypeRatingMessages",
  cell: (messages) => (messages as { language: number; message: string }[]).find((m) => m.language === language)?.message ?? "",
});

/** A room type's importable fields (lib/fields.ts); its rating messages, one column per language (SPEC.md section 3). */
export const ROOM_TYPE_FIELDS = defineFields({
  fields: {
    name: { kind: "text", required: true, max: textMax(RoomTypeSchema.shape.roomTypeName), example: "Meeting room", input: "roomTypeName", row: "roomTypeName" },
    tags: { kind: "tags", example: "meeting" },
    ratingMessageEn: ratingMessage(0, "How was your meeting room?"),
    ratingMessageFr: ratingMessage(1, "Comment était votre salle de réunion ?"),
    ratingMessageNl: ratingMessage(2, "Hoe was uw vergaderzaal?"),
  },
  compose: (values) => ({ roomTypeRatingMessages: (["ratingMessageEn", "ratingMessageFr", "ratingMessageNl"] as const).map((key, language) => ({ language, message: values[key] })) }),
});

/** DELETE /api/facilities/rooms/roomtype/{id} body, and the removal form. */
export const RemoveRoomTypeSchema = z.object({
  replacementRoomType: z
    .number({ error: "rooms:validation.replacementRequired" })
    .int()
    .positive()
    .nullish()
    .transform((v) => v ?? null),
});
export type RemoveRoomTypeInput = z.input<typeof RemoveRoomTypeSchema>;

export const NOT_A_URL = "rooms:validation.url";

/** An http(s) address. */
export const urlField = () =>
  z
    .string({ error: NOT_A_URL })
    .trim()
    .min(1, NOT_A_URL)
    .max(2000, NOT_A_URL)
    .refine((value) => {
      try {
        const url = new URL(value);
        return (url.protocol === "http:" || url.protocol === "https:") && url.hostname.includes(".");
      } catch {
        return false;
      }
    }, NOT_A_URL);

export const RoomLinkSchema = z.object({
  type: z
    .number({ error: "rooms:validation.linkType" })
    .int()
    .refine((v) => (ROOM_LINK_TYPE_VALUES as readonly number[]).includes(v), "rooms:validation.linkType")
    .transform((v) => v as RoomLinkType),
  url: urlField(),
});
export type RoomLinkInput = z.input<typeof RoomLinkSchema>;

/** One equipment item of a room: `id` for an existing item, none for a new one. */
export const RoomEquipmentSchema = z.object({
  id: z.number({ error: INVALID }).int().positive().nullish().transform((v) => v ?? null),
  equipmentTypeId: idField("rooms:validation.equipmentRequired"),
  internalReference: optionalText(100),
});
export type RoomEquipmentInput = z.input<typeof RoomEquipmentSchema>;

export const NO_EQUIPMENT = "rooms:validation.noEquipment";

const roomShape = {
  name: requiredText(200, "rooms:validation.nameRequired"),
  description: optionalText(2000),
  floor: requiredText(50, "rooms:validation.floorRequired"),
  buildingId: idField("rooms:validation.buildingRequired"),
  roomTypeId: idField("rooms:validation.roomTypeRequired"),
  incidentTypes: idList(),
  equipments: z
    // Required and non-empty as a type, not by a refinement, so that the OpenAPI contract generated
    // from this schema says so too.
    .array(RoomEquipmentSchema, { error: NO_EQUIPMENT })
    .min(1, NO_EQUIPMENT)
    .max(500, INVALID),
  links: z
    .array(RoomLinkSchema, { error: INVALID })
    .max(10 * 5, INVALID)
    .nullish()
    .transform((v) => v ?? []),
  /** Stored files of the room to delete (ids). */
  deletedFiles: z
    .array(z.string({ error: INVALID }).uuid(INVALID), { error: INVALID })
    .nullish()
    .transform((v) => [...new Set(v ?? [])]),
};

/** The room as every transport gives it to the service (new files travel beside it). */
export const RoomSchema = z.object(roomShape);
export type RoomInput = z.input<typeof RoomSchema>;
export type RoomValues = z.output<typeof RoomSchema>;

/**
 * A room's own fields, kept in its table (`ROOM_FIELDS` below): what the import creates, the detail's
 * values; its equipment, links, incident types and files are written beside it.
 */
export const RoomFieldsSchema = RoomSchema.omit({ incidentTypes: true, equipments: true, links: true, deletedFiles: true });
export type RoomFieldsInput = z.input<typeof RoomFieldsSchema>;

/** A room's importable fields (lib/fields.ts). */
export const ROOM_FIELDS = defineFields({
  fields: {
    name: { kind: "text", required: true, max: textMax(roomShape.name), example: "Room 1.01" },
    building: { kind: "reference", required: true, reference: "building", within: "facility", example: "Building A", input: "buildingId", row: "buildingName" },
    roomType: { kind: "reference", required: true, reference: "roomType", example: "Meeting room", input: "roomTypeId", row: "roomTypeName" },
    floor: { kind: "text", required: true, max: textMax(roomShape.floor), example: "1" },
    description: { kind: "text", max: textMax(roomShape.description), example: "" },
    // Optional: the building's facility, by name or short id, when building names repeat across facilities.
    facility: { kind: "text", max: 200, example: "Main campus", input: null, row: "facilityName" },
  },
  exportOrder: ["name", "description", "floor", "building", "facility", "roomType"],
});

/**
 * A room replaced by the REST call (SPEC.md section 7): its body has no `buildingId`; when it is left out
 * the room stays in its building. The forms always send one.
 */
export const UpdateRoomSchema = RoomSchema.extend({
  buildingId: idField("rooms:validation.buildingRequired").nullish().transform((v) => v ?? null),
});
export type UpdateRoomInput = z.input<typeof UpdateRoomSchema>;

// ---------------------------------------------------------------------------
// The quantity dialog: add `quantity` items of one generic equipment.
// ---------------------------------------------------------------------------
export const MAX_QUANTITY = 99;
export const AddEquipmentSchema = z.object({
  equipmentTypeId: idField("rooms:validation.equipmentRequired"),
  quantity: z
    .number({ error: "rooms:validation.quantityRequired" })
    .int("rooms:validation.quantityRequired")
    .min(0, "rooms:validation.quantityNegative")
    .max(MAX_QUANTITY, "rooms:validation.quantityMax")
    .refine((v) => v !== 0, "rooms:validation.quantityRequired"),
});
export type AddEquipmentInput = z.input<typeof AddEquipmentSchema>;

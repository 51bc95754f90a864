import { z } from "zod";
import { isCalendarDay } from "~/lib/dates";
import { defineFields, textMax } from "~/lib/fields";
import { idField, idList, INVALID, optionalText, requiredText, tagsField } from "~/lib/schema-helpers";

/**
 * Equipment categories and generic equipment (SPEC.md sections 3, 5, 7). Client-safe; messages are
 * i18n keys. Field names follow the REST bodies of section 7.
 */
export const CategorySchema = z.object({
  categoryName: requiredText(200, "equipment:validation.nameRequired"),
  tags: tagsField(),
});
export type CategoryInput = z.input<typeof CategorySchema>;

export const EquipmentTypeSchema = z.object({
  equipmentName: requiredText(200, "equipment:validation.nameRequired"),
  notes: optionalText(4000),
  categoryId: idField("equipment:validation.categoryRequired"),
  tags: tagsField(),
  incidentTypes: idList(),
  /** Stored files of the equipment to delete (ids). */
  deletedFiles: z
    .array(z.string({ error: INVALID }).uuid(INVALID), { error: INVALID })
    .nullish()
    .transform((v) => [...new Set(v ?? [])]),
});
export type EquipmentTypeInput = z.input<typeof EquipmentTypeSchema>;

/**
 * A generic equipment's own fields, kept in its table (`EQUIPMENT_TYPE_FIELDS` below): what the import
 * creates, the detail's values; its incident types and files are written beside it.
 */
export const EquipmentTypeFieldsSchema = EquipmentTypeSchema.omit({ incidentTypes: true, deletedFiles: true });
export type EquipmentTypeFieldsInput = z.input<typeof EquipmentTypeFieldsSchema>;

/** An equipment category's importable fields (lib/fields.ts). */
export const CATEGORY_FIELDS = defineFields({
  fields: {
    name: { kind: "text", required: true, max: textMax(CategorySchema.shape.categoryName), example: "Heating", input: "categoryName", row: "categoryName" },
    tags: { kind: "tags", example: "hvac" },
  },
});

/** A generic equipment's importable fields: its category named (by name or short id). */
export const EQUIPMENT_TYPE_FIELDS = defineFields({
  fields: {
    name: { kind: "text", required: true, max: textMax(EquipmentTypeSchema.shape.equipmentName), example: "Radiator", input: "equipmentName", row: "equipmentName" },
    category: { kind: "reference", required: true, reference: "category", example: "Heating", input: "categoryId", row: "categoryName" },
    notes: { kind: "text", max: textMax(EquipmentTypeSchema.shape.notes), example: "" },
    // The list row's tags carry their labels.
    tags: { kind: "tags", example: "hvac", cell: (tags, f) => f.list((tags as { label: string }[]).map((x) => x.label)) },
  },
});

/** A local date `YYYY-MM-DD` that exists in the calendar; empty or missing is none. */
const optionalDate = () =>
  z
    .string({ error: INVALID })
    .trim()
    .nullish()
    .transform((v) => (v ? v : null))
    .refine((v) => v === null || isCalendarDay(v), "equipment:validation.date");

/**
 * An equipment item's record (issue 63), the columns of `equipment_items` beside its room, generic
 * equipment and internal reference: what the item screen's form and PUT /equipments/{id} write.
 * `parentItemId`: another item of the entity it belongs to, or none (empty).
 */
export const EquipmentItemRecordSchema = z.object({
  serialNumber: optionalText(100),
  manufacturer: optionalText(200),
  model: optionalText(200),
  installedOn: optionalDate(),
  warrantyEndsOn: optionalDate(),
  supplier: optionalText(200),
  notes: optionalText(4000),
  parentItemId: idField(INVALID).nullish().transform((v) => v ?? null),
  /** Stored files of the item to delete (ids). */
  deletedFiles: z
    .array(z.string({ error: INVALID }).uuid(INVALID), { error: INVALID })
    .nullish()
    .transform((v) => [...new Set(v ?? [])]),
});
export type EquipmentItemRecordInput = z.input<typeof EquipmentItemRecordSchema>;
export type EquipmentItemRecord = Omit<z.output<typeof EquipmentItemRecordSchema>, "deletedFiles">;

/**
 * The equipment items' import (issue 63, decision 010): one line per item, created in its room or, when
 * the line names an existing item (its identifier, else its internal reference in that room), updated.
 * A record field whose column the file leaves out is kept; an empty cell clears it (as the form does).
 */
export const EquipmentItemImportSchema = EquipmentItemRecordSchema.omit({ deletedFiles: true }).extend({
  /** The existing item the line's identifier named. */
  id: idField(INVALID).nullish().transform((v) => v ?? null),
  equipmentTypeId: idField(),
  roomId: idField(),
  internalReference: optionalText(100),
});
export type EquipmentItemImportInput = z.input<typeof EquipmentItemImportSchema>;

/**
 * An item's importable fields, the export `equipment-items` too (its columns read back): its generic
 * equipment and room named (the room within the building column, by name or short id), its parent and
 * itself by their sticker identifiers (the parent also by a reference no other item of the entity has).
 */
export const EQUIPMENT_ITEM_FIELDS = defineFields({
  fields: {
    equipment: { kind: "reference", required: true, reference: "equipmentType", example: "Radiator", input: "equipmentTypeId", row: "equipmentName" },
    internalReference: { kind: "text", max: textMax(EquipmentItemImportSchema.shape.internalReference), example: "Radiator 1" },
    serialNumber: { kind: "text", max: textMax(EquipmentItemRecordSchema.shape.serialNumber), example: "SN-20431" },
    manufacturer: { kind: "text", max: textMax(EquipmentItemRecordSchema.shape.manufacturer), example: "Vaillant" },
    model: { kind: "text", max: textMax(EquipmentItemRecordSchema.shape.model), example: "ecoTEC plus" },
    installedOn: { kind: "date", example: "2024-03-15" },
    warrantyEndsOn: { kind: "date", example: "2029-03-15" },
    supplier: { kind: "text", max: textMax(EquipmentItemRecordSchema.shape.supplier), example: "" },
    notes: { kind: "text", max: textMax(EquipmentItemRecordSchema.shape.notes), example: "" },
    room: { kind: "reference", required: true, reference: "room", within: "building", example: "Room 1.01", input: "roomId", row: "roomName" },
    // Optional: the room's building, by name or short id, when room names repeat across buildings.
    building: { kind: "text", max: 200, example: "Building A", input: null, row: "buildingName" },
    parent: { kind: "reference", reference: "equipmentItem", example: "", input: "parentItemId", row: "parentIdentifier" },
    identifier: { kind: "reference", reference: "itemIdentifier", example: "", input: "id" },
  },
});

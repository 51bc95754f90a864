import { z } from "zod";
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

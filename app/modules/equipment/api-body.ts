import { z } from "zod";
import { apiFiles, idRefs, tagLabels } from "~/modules/files/api-body";
import { ForbiddenError } from "~/lib/errors";
import { INVALID, tagField } from "~/lib/schema-helpers";
import { CategorySchema, EquipmentItemRecordSchema, EquipmentTypeSchema } from "./schema";

/**
 * The REST bodies of generic equipment and categories (SPEC.md section 7) mapped onto the service
 * inputs: tags as `{ label }` (plain strings accepted), incident types as ids or `{ id }`, files as
 * `{ name, data }` with a base64 data URL. Client-safe; messages are i18n keys.
 */

/** POST /api/equipments/type: equipmentName, notes, categoryId, files, tags, incidentTypes. */
export const CreateEquipmentTypeBodySchema = EquipmentTypeSchema.omit({ deletedFiles: true })
  .extend({ tags: tagLabels(), incidentTypes: idRefs(), files: apiFiles() })
  .transform(({ files, ...fields }) => ({ ...fields, newFiles: files }));

/** PUT /api/equipments/type/{id}: equipmentName, notes, incidentTypes, categoryId, tags, deletedFiles, newFiles. */
export const UpdateEquipmentTypeBodySchema = EquipmentTypeSchema.extend({
  tags: tagLabels(),
  incidentTypes: idRefs(),
  newFiles: apiFiles(),
});

/** POST /api/equipments/type/{id}/tags. */
export const TagBodySchema = z.object({ label: tagField() });

/**
 * POST /api/equipments/category (categoryName, entityId, tags) and PUT (categoryName, tags).
 * `entityId` is optional; when given it must be the caller's entity (see `checkCategoryEntity`).
 */
export const CategoryBodySchema = CategorySchema.extend({
  tags: tagLabels(),
  entityId: z.number({ error: INVALID }).int(INVALID).positive(INVALID).nullish(),
});

/** A category body naming another entity is refused with 403 (a caller only writes in its own entity). */
export function checkCategoryEntity<B extends { entityId?: number | null }>(body: B, entityId: number): B {
  if (body.entityId != null && body.entityId !== entityId) throw new ForbiddenError();
  return body;
}

/**
 * PUT /api/equipments/{id}: an item's record (serialNumber, manufacturer, model, installedOn,
 * warrantyEndsOn, supplier, notes, parentItemId), `deletedFiles` (ids) and `newFiles` ({ name, data }).
 */
export const UpdateEquipmentItemBodySchema = EquipmentItemRecordSchema.extend({ newFiles: apiFiles() });

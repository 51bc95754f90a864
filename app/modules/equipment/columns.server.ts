import { eq } from "drizzle-orm";
import { equipmentCategories, equipmentItems, equipmentTypes } from "~/db/schema";

/**
 * The pieces of a read of equipment items that several areas repeat (the item's screen, its room, the
 * reliability ranking): how an item is named, and how it joins its type and that type's category.
 */

/** An item as lists name it: its reference and its type's name (the query joins `itemType`). */
export const equipmentItemName = {
  id: equipmentItems.id,
  internalReference: equipmentItems.internalReference,
  equipmentName: equipmentTypes.name,
};

/** The name with the type and the category (the query joins `itemType` and `typeCategory`). */
export const equipmentItemColumns = {
  ...equipmentItemName,
  equipmentTypeId: equipmentItems.equipmentTypeId,
  categoryName: equipmentCategories.name,
};

/** Joins an item to its type. */
export const itemType = eq(equipmentTypes.id, equipmentItems.equipmentTypeId);

/** Joins a type to its category. */
export const typeCategory = eq(equipmentCategories.id, equipmentTypes.categoryId);

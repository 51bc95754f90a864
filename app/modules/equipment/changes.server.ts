import { z } from "zod";
import { defineChange } from "~/core/changes.server";

/**
 * What happens to an equipment item's record (issue 63), as a change event (decision 048): its fields,
 * parent or files were written.
 */
export const EQUIPMENT_ITEM_PARTS = ["record"] as const;

export const equipmentItemChanged = defineChange({
  type: "equipmentItem.changed",
  payload: z.object({ equipmentItemId: z.number().int().positive(), part: z.enum(EQUIPMENT_ITEM_PARTS) }),
  subject: (p) => p.equipmentItemId,
});

/**
 * The warranty pass (./warranty.server.ts) found an item's warranty ending within the entity's reminder
 * days: emitted once per item and warranty end date; the "warranty ending" notification kind follows it.
 */
export const equipmentWarrantyEnding = defineChange({
  type: "equipmentItem.warranty-ending",
  payload: z.object({ equipmentItemId: z.number().int().positive(), warrantyEndsOn: z.string() }),
  subject: (p) => p.equipmentItemId,
});

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

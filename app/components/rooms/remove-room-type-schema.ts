import { z } from "zod";
import { confirmNameField } from "~/lib/archive";
import { idField } from "~/lib/schema-helpers";
import { RemoveRoomTypeSchema } from "~/modules/rooms/schema";

/**
 * The room type removal dialog's check in the browser (loaded lazily, decision 021): a replacement is
 * required while rooms or incident types use the type, and the retyped name must match.
 */
export const removeRoomTypeFormSchema = (inUse: boolean, name: string) =>
  z.object({
    replacementRoomType: inUse ? idField("rooms:validation.replacementRequired") : RemoveRoomTypeSchema.shape.replacementRoomType,
    confirmName: confirmNameField(name),
  });

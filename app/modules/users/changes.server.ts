import { z } from "zod";
import { defineChange } from "~/core/changes.server";

/**
 * What happens to people that others care about, as change events (decision 048): a person disabled or
 * archived loses access at once; their open live streams close when this reaches them.
 */
export const userDeactivated = defineChange({
  type: "user.deactivated",
  payload: z.object({ userId: z.number().int().positive(), reason: z.enum(["disabled", "archived"]) }),
  subject: (p) => p.userId,
});

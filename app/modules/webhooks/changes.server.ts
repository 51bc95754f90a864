import { z } from "zod";
import { defineChange } from "~/core/changes.server";

/**
 * What happens to webhook endpoints, as change events (decision 048): an endpoint was disabled after its
 * deliveries failed again and again (decision 057). The dispatcher turns it into the "webhook disabled"
 * notification to the entity's administrators (./notifications.server.ts).
 */
export const webhookDisabled = defineChange({
  type: "webhook.disabled",
  payload: z.object({ endpointId: z.number().int().positive(), name: z.string(), failedDeliveries: z.number().int().nonnegative() }),
  subject: (p) => p.endpointId,
});

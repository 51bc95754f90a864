import { z } from "zod";
import { entitySystemContext } from "~/core/context.server";
import { defineJob } from "~/core/jobs.server";
import { logger } from "~/lib/logger.server";
import { completePrintJob, PRINT_ACTOR } from "./service.server";

/**
 * A print too large to answer at once (decision 053): drawn in the background as the system of the
 * entity; the verb's change event notifies the person who asked. Idempotent: a done job is skipped.
 */
export const printStickersJob = defineJob({
  name: "print-stickers",
  payload: z.object({ entityId: z.number().int().positive(), printJobId: z.number().int().positive() }),
  retryLimit: 3,
  async handler({ entityId, printJobId }, job) {
    const ctx = await entitySystemContext(job.services, entityId, PRINT_ACTOR);
    const result = await completePrintJob(ctx, printJobId);
    logger().info({ entityId, printJobId, fileId: result?.fileId ?? null }, "sticker sheets printed in the background");
  },
});

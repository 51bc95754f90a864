import { z } from "zod";
import { entitySystemContext } from "~/core/context.server";
import { defineJob } from "~/core/jobs.server";
import { logger } from "~/lib/logger.server";
import { completePrintJob, failPrintJob, PRINT_ACTOR } from "./service.server";

/**
 * A print too large to answer at once (decision 053): drawn in the background as the system of the
 * entity; the verb's change event notifies the person who asked. Idempotent: a done job is skipped. A
 * failure is retried; at the last attempt the print job is marked failed, so it never stays queued.
 */
export const printStickersJob = defineJob({
  name: "print-stickers",
  payload: z.object({ entityId: z.number().int().positive(), printJobId: z.number().int().positive() }),
  retryLimit: 3,
  async handler({ entityId, printJobId }, job) {
    const ctx = await entitySystemContext(job.services, entityId, PRINT_ACTOR);
    try {
      const result = await completePrintJob(ctx, printJobId);
      logger().info({ entityId, printJobId, fileId: result?.fileId ?? null }, "sticker sheets printed in the background");
    } catch (error) {
      if ((job.attempt ?? 1) < (job.maxAttempts ?? 1)) throw error;
      await failPrintJob(ctx, printJobId);
      logger().error({ entityId, printJobId, err: error }, "sticker sheets could not be printed; the print job is marked failed");
    }
  },
});

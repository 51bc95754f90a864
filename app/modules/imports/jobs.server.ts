import { z } from "zod";
import { defineJob } from "~/core/jobs.server";
import { runImport } from "./run.server";

/**
 * The import job (decision 054): one per started import, retried twice after a crash (the transaction
 * left nothing behind), then marked failed and its requester told.
 */
export const importJob = defineJob({
  name: "import",
  payload: z.object({ dataJobId: z.number().int().positive(), entityId: z.number().int().positive() }),
  retryLimit: 2,
  async handler(payload, job) {
    await runImport(job.services, payload, job);
  },
});

import { z } from "zod";
import { defineChange } from "~/core/changes.server";
import { BULK_UPLOAD_ERROR_CODE_VALUES, BULK_UPLOAD_TYPE_VALUES } from "~/db/enums";

/**
 * "Import finished" (decision 048): emitted by the import job in the transaction that writes the
 * imported rows (success), or in the one that marks the job failed (failure). The dispatcher turns it
 * into the import success or failure notification of the importer (./notifications.server.ts) and a
 * live event.
 */
export const importFinished = defineChange({
  type: "import.finished",
  webhook: true,
  payload: z.object({
    dataJobId: z.number().int().positive(),
    importType: z.number().int().refine((n) => (BULK_UPLOAD_TYPE_VALUES as readonly number[]).includes(n)),
    succeeded: z.boolean(),
    requestedById: z.number().int().positive().nullable(),
    rows: z.number().int().nonnegative(),
    errorCode: z.number().int().refine((n) => (BULK_UPLOAD_ERROR_CODE_VALUES as readonly number[]).includes(n)),
  }),
  subject: (p) => p.dataJobId,
});

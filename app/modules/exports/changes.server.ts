import { z } from "zod";
import { defineChange } from "~/core/changes.server";
import { EXPORT_TYPE_VALUES } from "~/db/enums";

/**
 * "Export ready" (issue 49, decision 055): the export job wrote the file of a data job, as the system
 * acting for the person who asked. The dispatcher turns it into that person's export success
 * notification with the download link (./notifications.server.ts).
 */
export const exportReady = defineChange({
  type: "export.finished",
  webhook: true,
  payload: z.object({
    dataJobId: z.number().int().positive(),
    exportType: z.number().int().refine((v) => (EXPORT_TYPE_VALUES as readonly number[]).includes(v)),
    fileId: z.uuid(),
    requestedById: z.number().int().positive(),
    rows: z.number().int().min(0),
  }),
  subject: (p) => p.dataJobId,
});
